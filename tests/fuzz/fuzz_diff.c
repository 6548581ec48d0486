/* libFuzzer target: the JSON reader behind `readbench diff` and `run --baseline`. Any bytes
   must give a document or NULL with a reason, never a crash or a read past the end; a
   document that parses goes through the diff (against itself) and its writers. */
#define READBENCH_IMPLEMENTATION
#include "readbench.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[RB_REASON_LEN];
    char *copy = (char *)malloc(size ? size : 1);   /* exactly size bytes: ASan sees any overread */
    rb_json *doc;
    rb_diff d;
    if (!copy) return 0;
    if (size) memcpy(copy, data, size);
    doc = rb_json_parse(copy, size, why, sizeof why);
    if (!doc && !why[0]) abort();   /* a failure always says why */
    if (doc && rb_diff_make(doc, doc, NULL, &d, why, sizeof why) == RB_OK) {
        FILE *f = fopen("/dev/null", "w");
        if (f) {
            rb_report_diff(f, &d, RB_FORMAT_JSON, "a", "b");
            rb_report_diff(f, &d, RB_FORMAT_MARKDOWN, "a", "b");
            fclose(f);
        }
        rb_diff_free(&d);
    }
    rb_json_free(doc);
    free(copy);
    return 0;
}
