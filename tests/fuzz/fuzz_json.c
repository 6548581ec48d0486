/* libFuzzer target: the JSON writer. Any bytes as a string (a file name can hold quotes,
   newlines, control bytes, invalid UTF-8) must come out as one valid JSON string literal
   of valid UTF-8; a whole report with such a path and reason must stay well-formed. The SVG
   writer too, with those bytes as reason and title: valid UTF-8 with no character XML 1.0
   forbids, and every '<' and '&' one the writer meant. */
#define READBENCH_IMPLEMENTATION
#include "readbench.h"

static int valid_json_string(const unsigned char *s, size_t n)
{
    size_t i = 1;
    if (n < 2 || s[0] != '"' || s[n - 1] != '"') return 0;
    while (i < n - 1) {
        if (s[i] < 0x20 || s[i] == '"') return 0;
        if (s[i] == '\\') {
            const char *esc = "\"\\/bfnrt";
            if (i + 1 >= n - 1) return 0;
            if (s[i + 1] == 'u') {
                size_t k;
                if (i + 6 > n - 1) return 0;
                for (k = 2; k < 6; k++)
                    if (!strchr("0123456789abcdefABCDEF", s[i + k]) || !s[i + k]) return 0;
                i += 6;
                continue;
            }
            if (!strchr(esc, s[i + 1]) || !s[i + 1]) return 0;
            i += 2;
            continue;
        }
        if (s[i] >= 0x80) {
            int l = rb__utf8_len(s + i);
            if (l == 0 || i + (size_t)l > n - 1) return 0;
            i += (size_t)l;
            continue;
        }
        i++;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char in[1024], *out = NULL;
    size_t n = size < sizeof in - 1 ? size : sizeof in - 1, len = 0;
    FILE *f;
    rb_result r;
    rb_report rep;
    rb_config c;
    const char *names[1];
    unsigned th = 1;
    uint64_t rs = 4096;
    memcpy(in, data, n);
    in[n] = 0;
    f = open_memstream(&out, &len);
    if (!f) return 0;
    rb_json_string(f, in);
    fclose(f);
    if (!valid_json_string((const unsigned char *)out, len)) __builtin_trap();
    free(out);

    memset(&r, 0, sizeof r);
    memset(&c, 0, sizeof c);
    rb_hist_init(&r.lat);
    r.strategy = "pread";
    r.status = RB_UNSUPPORTED;
    snprintf(r.reason, sizeof r.reason, "%s", in);
    c.path = in;
    names[0] = "pread";
    memset(&rep, 0, sizeof rep);
    rep.results = &r; rep.count = 1; rep.cfg = &c;
    rep.strategies = names; rep.nstrategies = 1;
    rep.threads = &th; rep.nthreads = 1; rep.read_sizes = &rs; rep.nread_sizes = 1;
    out = NULL;
    f = open_memstream(&out, &len);
    if (!f) return 0;
    rb_report_json(f, &rep);
    fclose(f);
    {   /* no raw control byte may appear anywhere but as the document's own newlines */
        size_t i;
        for (i = 0; i < len; i++)
            if ((unsigned char)out[i] < 0x20 && out[i] != '\n') __builtin_trap();
    }
    free(out);

    out = NULL;
    f = open_memstream(&out, &len);
    if (!f) return 0;
    rb_report_svg(f, &rep, in, 0);
    fclose(f);
    {
        const unsigned char *u = (const unsigned char *)out;
        size_t i;
        for (i = 0; i < len; i++) {
            if (u[i] >= 0x80) {
                int l = rb__utf8_len(u + i);
                if (l == 0 || (l == 3 && u[i] == 0xef && u[i + 1] == 0xbf && u[i + 2] >= 0xbe)) __builtin_trap();
                i += (size_t)l - 1;
            } else if (u[i] < 0x20 && u[i] != '\n' && u[i] != '\t') {
                __builtin_trap();
            } else if (u[i] == '<' && !strchr("/?abcdefghijklmnopqrstuvwxyz", out[i + 1])) {
                __builtin_trap();
            } else if (u[i] == '&' && strncmp(out + i, "&amp;", 5) && strncmp(out + i, "&lt;", 4) &&
                       strncmp(out + i, "&gt;", 4) && strncmp(out + i, "&quot;", 6)) {
                __builtin_trap();
            }
        }
    }
    free(out);
    return 0;
}
