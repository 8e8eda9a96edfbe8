/*
 * util_test.c - gen/util.c's text and file helpers that guard what kgen
 * prints and opens: UTF-8 lengths, escaping for a terminal (R4-6), and
 * opening a file kgen names itself without blocking on a FIFO (R4-3).
 */
#include "config.h"
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "gen/util.h"

START_TEST(utf8_lengths)
{
	ck_assert_int_eq(kgen_utf8_length("a"), 1);
	ck_assert_int_eq(kgen_utf8_length(""), 1);                  /* the NUL */
	ck_assert_int_eq(kgen_utf8_length("\xc3\xa9"), 2);          /* é */
	ck_assert_int_eq(kgen_utf8_length("\xe2\x82\xac"), 3);      /* € */
	ck_assert_int_eq(kgen_utf8_length("\xf0\x9f\x98\x80"), 4);  /* U+1F600 */
	ck_assert_int_eq(kgen_utf8_length("\xe9t\xe9"), 0);         /* Latin-1 é */
	ck_assert_int_eq(kgen_utf8_length("\x80"), 0);              /* a stray continuation */
	ck_assert_int_eq(kgen_utf8_length("\xc0\xaf"), 0);          /* overlong '/' */
	ck_assert_int_eq(kgen_utf8_length("\xe0\x80\xaf"), 0);      /* overlong, 3 bytes */
	ck_assert_int_eq(kgen_utf8_length("\xed\xa0\x80"), 0);      /* a surrogate */
	ck_assert_int_eq(kgen_utf8_length("\xf4\x90\x80\x80"), 0);  /* past U+10FFFF */
	ck_assert_int_eq(kgen_utf8_length("\xe2\x82"), 0);          /* cut short by the NUL */
}
END_TEST

START_TEST(escape_keeps_one_line_and_no_control)
{
	char buf[64];

	ck_assert_str_eq(kgen_escape("threads=1\n\033[31m", buf, sizeof buf, 0), "threads=1\\x0a\\x1b[31m");
	ck_assert_str_eq(kgen_escape("caf\xc3\xa9 \xe9", buf, sizeof buf, 0), "caf\xc3\xa9 \\xe9");
	ck_assert_str_eq(kgen_escape("\xc2\x9b" "2J", buf, sizeof buf, 0), "\\xc2\\x9b2J");  /* C1 CSI */
	ck_assert_str_eq(kgen_escape("a\\b\x7f", buf, sizeof buf, 0), "a\\x5cb\\x7f");
	ck_assert_str_eq(kgen_escape("abcdef", buf, sizeof buf, 3), "abc...");
	ck_assert_str_eq(kgen_escape("abcdefghijklmnop", buf, 12, 0), "abcd");  /* room kept for a whole escape and the NUL */
	ck_assert_str_eq(kgen_escape("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", buf, 12, 0), "\xc3\xa9\xc3\xa9");  /* never half an \xc3\xa9 */
	ck_assert_str_eq(kgen_escape("abc", buf, 1, 0), "");
	ck_assert_str_eq(kgen_quote("\xe2\x82\xac\xe2\x82\xac", buf, sizeof buf), "\xe2\x82\xac\xe2\x82\xac");
}
END_TEST

START_TEST(open_regular_never_blocks)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096], path[4200];
	struct stat st;
	int fd;

	snprintf(dir, sizeof dir, "%s/kgen-util.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(kgen_open_regular(path, O_RDONLY, &st), -2);  /* no writer: a plain open would wait for ever */
	ck_assert(S_ISFIFO(st.st_mode));
	ck_assert_int_eq(kgen_open_regular(path, O_RDWR | O_APPEND | O_CREAT, &st), -2);
	ck_assert_int_eq(kgen_open_regular(dir, O_RDONLY, &st), -2);
	ck_assert(S_ISDIR(st.st_mode));
	unlink(path);
	snprintf(path, sizeof path, "%s/file", dir);
	ck_assert_int_eq(kgen_open_regular(path, O_RDONLY, &st), -1);
	ck_assert_int_eq(errno, ENOENT);
	fd = kgen_open_regular(path, O_RDWR | O_CREAT, &st);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);  /* blocking again */
	ck_assert_int_ne(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
	close(fd);
	unlink(path);
	rmdir(dir);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("text and files");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, utf8_lengths);
	tcase_add_test(tc, escape_keeps_one_line_and_no_control);
	tcase_add_test(tc, open_regular_never_blocks);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
