/* libFuzzer target: the CLI's one option parser (main.c's parse, for every command's options)
   and the library's size, duration and list parsers, on arguments cut from the input at
   newlines. Only parsing runs: parse never touches a file. */
#define main readbench_cli_main
#include "../../main.c"
#undef main

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char buf[2048], *argv[40];
    int argc = 2;
    size_t i, n = size < sizeof buf - 1 ? size : sizeof buf - 1;
    uint64_t u, sizes[8];
    int64_t ns;
    unsigned un[8], cnt;
    double d[8];
    cli o;
    unsigned k;
    memcpy(buf, data, n);
    buf[n] = 0;
    argv[0] = (char *)"readbench";
    argv[1] = (char *)"run";
    argv[argc++] = buf;
    for (i = 0; i < n && argc < 39; i++)
        if (buf[i] == '\n') { buf[i] = 0; argv[argc++] = buf + i + 1; }
    argv[argc] = NULL;
    for (i = 2; i < (size_t)argc; i++) {   /* each argument through every parser */
        rb_parse_size(argv[i], &u);
        rb_parse_duration(argv[i], &ns);
        rb_parse_uint_list(argv[i], un, 8, &cnt);
        rb_parse_size_list(argv[i], sizes, 8, &cnt);
        rb_parse_double_list(argv[i], d, 8, &cnt);
        rb_parse_number(argv[i], 1, d);
    }
    for (k = 0; k < sizeof commands / sizeof commands[0]; k++) {
        memset(&o, 0, sizeof o);
        o.cmd = commands[k].cmd;
        o.doc = rb_command_doc_find(commands[k].name);
        parse(argc, argv, 2, commands[k].npos, commands[k].needs, &o);
    }
    return 0;
}
