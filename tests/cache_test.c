/* cache_test.c - the on-disk kernel cache: hits, keys, damaged entries,
 * directories, clearing and two writers at once.  Each test runs in its own
 * temporary directory, named by KGEN_CACHE_DIR. */
#include "config.h"
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <nvrtc.h>
#include "runtime/cache.h"

#define IMAGE_SIZE 20000

static char dir[256];
static unsigned char image[IMAGE_SIZE];

static const char source[] =
	"extern \"C\" __global__ void reduce_sum(const float *in, float *out, int n)\n"
	"{\n"
	"\tfloat s = 0;\n"
	"\tfor (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)\n"
	"\t\ts += in[i];\n"
	"\tatomicAdd(out, s);\n"
	"}\n";

static struct kgen_cache_key
base_key(void)
{
	struct kgen_cache_key k = {
		.source = source,
		.options = "--gpu-architecture=sm_90 --std=c++17 --device-as-default-execution-space",
		.arch = "sm_90",
		.nvrtc_version = "12.4",
		.kgen_version = KGEN_VERSION,
		.name = "reduce_sum",
	};
	return k;
}

static void
remove_tree(const char *path)
{
	struct stat st;
	struct dirent *de;
	char sub[1024];
	DIR *d;

	if (lstat(path, &st) != 0)
		return;
	if (S_ISDIR(st.st_mode) && (d = opendir(path))) {
		chmod(path, 0700);
		while ((de = readdir(d)))
			if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
				snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
				remove_tree(sub);
			}
		closedir(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

static void
setup(void)
{
	unsigned x = 12345;
	size_t i;

	umask(022);  /* files the tests write are not group-writable, whatever the caller's umask */
	snprintf(dir, sizeof dir, "/tmp/kgen-cache-test.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	setenv("KGEN_CACHE_DIR", dir, 1);
	unsetenv("KGEN_CACHE");
	for (i = 0; i < IMAGE_SIZE; i++) {  /* a fake cubin, NULs included */
		x = x * 1103515245u + 12345u;
		image[i] = (unsigned char)(x >> 16);
	}
	memcpy(image, "\177ELF", 4);
}

static void
teardown(void)
{
	remove_tree(dir);
}

static void
entry_path(const struct kgen_cache_key *k, char *buf, size_t n)
{
	char name[KGEN_CACHE_NAME_MAX];

	kgen_cache_entry_name(k, name);
	snprintf(buf, n, "%s/%s", dir, name);
}

static int
exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* Files in dir whose name contains s. */
static int
count_files(const char *s)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' && strstr(de->d_name, s))
			n++;
	closedir(d);
	return n;
}

static void
put_ok(const struct kgen_cache_key *k)
{
	kgen_error err;

	ck_assert_msg(kgen_cache_put(dir, k, image, sizeof image, &err) == KGEN_OK, "put: %s", err.message);
}

static void
expect_hit(const struct kgen_cache_key *k)
{
	kgen_error err;
	void *img = NULL;
	size_t n = 0;

	ck_assert_msg(kgen_cache_get(dir, k, &img, &n, &err) == KGEN_OK, "get: %s", err.message);
	ck_assert_ptr_nonnull(img);
	ck_assert_uint_eq(n, sizeof image);
	ck_assert(memcmp(img, image, n) == 0);
	ck_assert_int_eq(((char *)img)[n], '\0');
	free(img);
}

static void
expect_miss(const struct kgen_cache_key *k)
{
	kgen_error err;
	void *img = (void *)1;
	size_t n = 1;

	ck_assert_msg(kgen_cache_get(dir, k, &img, &n, &err) == KGEN_OK, "get: %s", err.message);
	ck_assert_ptr_null(img);
	ck_assert_uint_eq(n, 0);
}

START_TEST(test_miss_put_hit)
{
	struct kgen_cache_key k = base_key();
	char path[512];

	expect_miss(&k);
	put_ok(&k);
	expect_hit(&k);
	expect_hit(&k);
	entry_path(&k, path, sizeof path);
	ck_assert(exists(path));
	ck_assert_int_eq(count_files(".kgenc"), 1);
	put_ok(&k);  /* a second put replaces the entry */
	expect_hit(&k);
	ck_assert_int_eq(count_files(".kgenc"), 1);
}
END_TEST

START_TEST(test_empty_image)
{
	struct kgen_cache_key k = base_key();
	kgen_error err;
	void *img = NULL;
	size_t n = 1;

	k.name = NULL;
	ck_assert_int_eq(kgen_cache_put(dir, &k, NULL, 0, &err), KGEN_OK);
	ck_assert_int_eq(kgen_cache_get(dir, &k, &img, &n, &err), KGEN_OK);
	ck_assert_ptr_nonnull(img);
	ck_assert_uint_eq(n, 0);
	free(img);
}
END_TEST

/* Changing any one part of the key misses; the original still hits. */
START_TEST(test_keying)
{
	struct kgen_cache_key base = base_key(), k;
	char src[sizeof source];
	char a[KGEN_CACHE_NAME_MAX], b[KGEN_CACHE_NAME_MAX], opts[256];
	int i;

	memcpy(src, source, sizeof source);
	src[sizeof source - 3] = ';';  /* one byte of the source */
	snprintf(opts, sizeof opts, "%ss", base.options);
	put_ok(&base);
	for (i = 0; i < 7; i++) {
		k = base;
		switch (i) {
		case 0: k.source = src; break;
		case 1: k.options = "--gpu-architecture=sm_90 --std=c++17"; break;
		case 2: k.arch = "sm_80"; break;
		case 3: k.nvrtc_version = "12.5"; break;
		case 4: k.kgen_version = "0.1.1"; break;
		case 5: k.name = "reduce_max"; break;
		case 6: k.options = opts; k.arch = "m_90"; break;  /* one byte moved across fields */
		}
		kgen_cache_entry_name(&base, a);
		kgen_cache_entry_name(&k, b);
		ck_assert_msg(strcmp(a, b) != 0, "change %d keeps the file name", i);
		expect_miss(&k);
		expect_hit(&base);
	}
}
END_TEST

/* The hash takes 8-byte words, then the last bytes: a change to any one
 * byte of a long source, in a word or in the tail, moves the file name. */
START_TEST(test_every_byte_names)
{
	static char base_src[4101], src[4101];
	struct kgen_cache_key base = base_key(), k = base_key();
	char a[KGEN_CACHE_NAME_MAX], b[KGEN_CACHE_NAME_MAX];
	size_t i;

	memset(base_src, 'x', sizeof base_src - 1);
	base.source = base_src;
	k.source = src;
	kgen_cache_entry_name(&base, a);
	for (i = 0; i < sizeof src - 1; i += 97) {
		memcpy(src, base_src, sizeof src);
		src[i] ^= 1;
		kgen_cache_entry_name(&k, b);
		ck_assert_msg(strcmp(a, b) != 0, "byte %zu of the source keeps the file name", i);
	}
	memcpy(src, base_src, sizeof src);
	src[sizeof src - 2] = 'y';  /* the last byte, past the last whole word */
	kgen_cache_entry_name(&k, b);
	ck_assert_str_ne(a, b);
	put_ok(&base);
	expect_hit(&base);
	expect_miss(&k);
}
END_TEST

/* Two changes at once, in the high bytes of two words (which a multiply
 * alone carries only upward, so that such pairs collided once in 256):
 * 3000 random pairs, no two names alike. */
START_TEST(test_two_words_name_apart)
{
	static char s1[1025], s2[1025];
	struct kgen_cache_key k1 = base_key(), k2 = base_key();
	char a[KGEN_CACHE_NAME_MAX], b[KGEN_CACHE_NAME_MAX];
	unsigned long long x = 88172645463325252ull;
	int trial, same = 0;
	size_t i, w1, w2;

	k1.source = s1;
	k2.source = s2;
	for (trial = 0; trial < 3000; trial++) {
		for (i = 0; i < sizeof s1 - 1; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			s1[i] = (char)('a' + x % 26);
		}
		memcpy(s2, s1, sizeof s1);
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		w1 = x % 128;
		w2 = (w1 + 1 + (x >> 8) % 127) % 128;
		s2[8 * w1 + 7] ^= (char)(1 + (x >> 16) % 15);  /* the top byte of two words */
		s2[8 * w2 + 7] ^= (char)(1 + (x >> 24) % 15);
		kgen_cache_entry_name(&k1, a);
		kgen_cache_entry_name(&k2, b);
		same += strcmp(a, b) == 0;
	}
	ck_assert_msg(same == 0, "%d of 3000 pairs share a name", same);
}
END_TEST

/* Another key's entry under this key's file name (what a hash collision
 * would look like) is a miss and is removed. */
START_TEST(test_collision_is_miss)
{
	struct kgen_cache_key a = base_key(), b = base_key();
	char pa[512], pb[512];

	b.arch = "sm_80";
	put_ok(&a);
	entry_path(&a, pa, sizeof pa);
	entry_path(&b, pb, sizeof pb);
	ck_assert_int_eq(rename(pa, pb), 0);
	expect_miss(&b);
	ck_assert(!exists(pb));
	put_ok(&b);
	expect_hit(&b);
}
END_TEST

static void
write_bytes(const char *path, const void *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, p, n), (ssize_t)n);
	close(fd);
}

static void
flip(const char *path, off_t at)
{
	unsigned char c;
	int fd = open(path, O_RDWR);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pread(fd, &c, 1, at), 1);
	c ^= 0x10;
	ck_assert_int_eq(pwrite(fd, &c, 1, at), 1);
	close(fd);
}

/* Each kind of damage is a miss that removes the file; then put and get
 * work again. */
START_TEST(test_corrupt)
{
	struct kgen_cache_key k = base_key();
	unsigned char junk[4096];
	struct stat st;
	char path[512];
	size_t j;

	entry_path(&k, path, sizeof path);
	put_ok(&k);
	ck_assert_int_eq(stat(path, &st), 0);
	switch (_i) {
	case 0: ck_assert_int_eq(truncate(path, st.st_size / 2), 0); break;  /* torn in the middle */
	case 1: ck_assert_int_eq(truncate(path, st.st_size - 1), 0); break;  /* the last byte lost */
	case 2: ck_assert_int_eq(truncate(path, 7 + 7 * 8), 0); break;      /* the header alone */
	case 3: flip(path, st.st_size / 2); break;                           /* a byte of the image */
	case 4: flip(path, 7 + 7 * 8 + 3); break;                            /* a byte of the key */
	case 5: flip(path, st.st_size - 1); break;                           /* the checksum */
	case 6: flip(path, 0); break;                                        /* the magic */
	case 7: flip(path, 7 + 6 * 8); break;                                /* the image's length */
	case 8:                                                              /* garbage */
		for (j = 0; j < sizeof junk; j++)
			junk[j] = (unsigned char)(j * 7 + 3);
		write_bytes(path, junk, sizeof junk);
		break;
	case 9: write_bytes(path, "", 0); break;                             /* zero length */
	case 10: {                                                           /* one byte too many */
		int fd = open(path, O_WRONLY | O_APPEND);
		ck_assert_int_eq(write(fd, "x", 1), 1);
		close(fd);
		break;
	}
	case 11:  /* right magic, lengths that overflow when added */
		memset(junk, 0xff, sizeof junk);
		memcpy(junk, "KGENC3\n", 7);
		write_bytes(path, junk, 7 + 7 * 8 + 8);
		break;
	}
	expect_miss(&k);
	ck_assert_msg(!exists(path), "damage %d: the entry was not removed", _i);
	put_ok(&k);
	expect_hit(&k);
}
END_TEST

/* Something not a regular file under the entry's name (a directory, a FIFO)
 * is a miss and is left alone. */
START_TEST(test_not_a_file)
{
	struct kgen_cache_key k = base_key();
	kgen_error err;
	char path[512];

	entry_path(&k, path, sizeof path);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	expect_miss(&k);
	ck_assert(exists(path));
	ck_assert_int_eq(kgen_cache_put(dir, &k, image, sizeof image, &err), KGEN_EIO);
	ck_assert_ptr_nonnull(strstr(err.message, "cannot rename"));
	ck_assert_int_eq(count_files(".tmp."), 0);
	ck_assert_int_eq(rmdir(path), 0);
	ck_assert_int_eq(mkfifo(path, 0600), 0);  /* must not block */
	expect_miss(&k);
	ck_assert(exists(path));
}
END_TEST

START_TEST(test_enabled)
{
	unsetenv("KGEN_CACHE");
	ck_assert_int_eq(kgen_cache_enabled(), 1);
	setenv("KGEN_CACHE", "0", 1);
	ck_assert_int_eq(kgen_cache_enabled(), 0);
	setenv("KGEN_CACHE", "off", 1);
	ck_assert_int_eq(kgen_cache_enabled(), 0);
	setenv("KGEN_CACHE", "1", 1);
	ck_assert_int_eq(kgen_cache_enabled(), 1);
	setenv("KGEN_CACHE", "", 1);
	ck_assert_int_eq(kgen_cache_enabled(), 1);
}
END_TEST

START_TEST(test_dir_order)
{
	char buf[256];
	kgen_error err;

	setenv("KGEN_CACHE_DIR", "/a/b", 1);
	setenv("XDG_CACHE_HOME", "/x", 1);
	setenv("HOME", "/h", 1);
	ck_assert_int_eq(kgen_cache_dir(buf, sizeof buf, &err), KGEN_OK);
	ck_assert_str_eq(buf, "/a/b");
	setenv("KGEN_CACHE_DIR", "", 1);
	ck_assert_int_eq(kgen_cache_dir(buf, sizeof buf, &err), KGEN_OK);
	ck_assert_str_eq(buf, "/x/kgen");
	unsetenv("KGEN_CACHE_DIR");
	ck_assert_int_eq(kgen_cache_dir(buf, sizeof buf, &err), KGEN_OK);
	ck_assert_str_eq(buf, "/x/kgen");
	setenv("XDG_CACHE_HOME", "relative", 1);  /* invalid by the XDG spec */
	ck_assert_int_eq(kgen_cache_dir(buf, sizeof buf, &err), KGEN_OK);
	ck_assert_str_eq(buf, "/h/.cache/kgen");
	unsetenv("XDG_CACHE_HOME");
	ck_assert_int_eq(kgen_cache_dir(buf, sizeof buf, &err), KGEN_OK);
	ck_assert_str_eq(buf, "/h/.cache/kgen");
	ck_assert_int_eq(kgen_cache_dir(buf, 8, &err), KGEN_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.message, "too long"));
	unsetenv("HOME");
	ck_assert_int_eq(kgen_cache_dir(buf, sizeof buf, &err), KGEN_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.message, "KGEN_CACHE_DIR"));
}
END_TEST

/* The directory is made on the first put, every level mode 0700. */
START_TEST(test_dir_created)
{
	struct kgen_cache_key k = base_key();
	char sub[512], buf[512], *p;
	struct stat st;
	kgen_error err;
	void *img;
	size_t n;

	snprintf(sub, sizeof sub, "%s/a/b//c/", dir);
	setenv("KGEN_CACHE_DIR", sub, 1);
	ck_assert_int_eq(kgen_cache_dir(buf, sizeof buf, &err), KGEN_OK);
	ck_assert_int_eq(kgen_cache_get(buf, &k, &img, &n, &err), KGEN_OK);  /* no directory: a miss */
	ck_assert_ptr_null(img);
	ck_assert(!exists(buf));
	ck_assert_int_eq(kgen_cache_put(buf, &k, image, sizeof image, &err), KGEN_OK);
	ck_assert_int_eq(kgen_cache_get(buf, &k, &img, &n, &err), KGEN_OK);
	ck_assert_ptr_nonnull(img);
	free(img);
	for (p = sub + strlen(dir); *p; p++) {
		if (*p != '/' || p[-1] == '/')
			continue;
		*p = '\0';
		ck_assert_int_eq(stat(sub, &st), 0);
		ck_assert_msg(S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700, "%s: mode %o", sub, st.st_mode & 0777);
		*p = '/';
	}
}
END_TEST

START_TEST(test_clear)
{
	struct kgen_cache_key k1 = base_key(), k2 = base_key(), k3 = base_key();
	const char *keep[] = { "notes.txt", "0123456789abcdef.kgenc.bak", "0123456789ABCDEF.kgenc", "x0123456789abcdef.kgenc",
	                       "0123456789abcdef.kgenc.tmp.1.0" /* fresh: a writer may be at work */ };
	struct timespec old[2];
	char path[512];
	unsigned removed = 99;
	kgen_error err;
	size_t i;

	k2.arch = "sm_80";
	k3.source = "__global__ void f() {}\n";
	put_ok(&k1);
	put_ok(&k2);
	put_ok(&k3);
	for (i = 0; i < sizeof keep / sizeof keep[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, keep[i]);
		write_bytes(path, "keep", 4);
	}
	snprintf(path, sizeof path, "%s/sub", dir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/fedcba9876543210.kgenc.tmp.4242.7", dir);  /* its writer died an hour ago */
	write_bytes(path, "torn", 4);
	old[0].tv_sec = old[1].tv_sec = time(NULL) - 3600;
	old[0].tv_nsec = old[1].tv_nsec = 0;
	ck_assert_int_eq(utimensat(AT_FDCWD, path, old, 0), 0);

	ck_assert_int_eq(kgen_cache_clear(dir, &removed, &err), KGEN_OK);
	ck_assert_uint_eq(removed, 4);
	ck_assert(!exists(path));
	expect_miss(&k1);
	expect_miss(&k2);
	expect_miss(&k3);
	for (i = 0; i < sizeof keep / sizeof keep[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, keep[i]);
		ck_assert_msg(exists(path), "%s was removed", keep[i]);
	}
	snprintf(path, sizeof path, "%s/sub", dir);
	ck_assert(exists(path));

	ck_assert_int_eq(kgen_cache_clear(dir, &removed, &err), KGEN_OK);
	ck_assert_uint_eq(removed, 0);
	snprintf(path, sizeof path, "%s/none", dir);
	ck_assert_int_eq(kgen_cache_clear(path, &removed, &err), KGEN_OK);  /* no directory: nothing to do */
	ck_assert_uint_eq(removed, 0);
}
END_TEST

START_TEST(test_list)
{
	struct kgen_cache_key k1 = base_key(), k2 = base_key();
	char path[512], *text = NULL, *line, *save;
	char n1[KGEN_CACHE_NAME_MAX], n2[KGEN_CACHE_NAME_MAX];
	size_t len = 0;
	kgen_error err;
	FILE *fp;
	int lines = 0;

	k2.arch = "sm_80";
	k2.name = NULL;
	put_ok(&k1);
	put_ok(&k2);
	kgen_cache_entry_name(&k1, n1);
	kgen_cache_entry_name(&k2, n2);
	snprintf(path, sizeof path, "%s/00000000deadbeef.kgenc", dir);
	write_bytes(path, "garbage", 7);
	snprintf(path, sizeof path, "%s/00000000feedf00d.kgenc", dir);  /* an entry of the first format */
	write_bytes(path, "KGENC1\n", 7);
	snprintf(path, sizeof path, "%s/notes.txt", dir);
	write_bytes(path, "keep", 4);

	ck_assert_ptr_nonnull(fp = open_memstream(&text, &len));
	ck_assert_int_eq(kgen_cache_list(dir, fp, &err), KGEN_OK);
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(text, "00000000deadbeef.kgenc 7 ? ? "));
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		lines++;
		if (strncmp(line, n1, strlen(n1)) == 0)
			ck_assert_ptr_nonnull(strstr(line, " reduce_sum sm_90 "));
		else if (strncmp(line, n2, strlen(n2)) == 0)
			ck_assert_ptr_nonnull(strstr(line, " - sm_80 "));
		else if (strncmp(line, "00000000feedf00d", 16) == 0)
			ck_assert_ptr_nonnull(strstr(line, " an older kgen's entry, never read (kgen cache clear removes it)"));
		else
			ck_assert_ptr_nonnull(strstr(line, "damaged"));
	}
	ck_assert_int_eq(lines, 4);
	free(text);

	snprintf(path, sizeof path, "%s/none", dir);
	ck_assert_int_eq(kgen_cache_list(path, stdout, &err), KGEN_OK);
}
END_TEST

/* Writers racing on one entry: every put succeeds, every get right after
 * it hits, and one valid entry and no temporaries are left. */
START_TEST(test_two_writers)
{
	enum { WRITERS = 2, ROUNDS = 300 };
	struct kgen_cache_key k = base_key();
	pid_t pid[WRITERS];
	int i, r, status;

	for (i = 0; i < WRITERS; i++) {
		ck_assert_int_ge(pid[i] = fork(), 0);
		if (pid[i] == 0) {
			kgen_error err;
			void *img;
			size_t n;
			int bad = 0;

			for (r = 0; r < ROUNDS; r++) {
				if (kgen_cache_put(dir, &k, image, sizeof image, &err) != KGEN_OK)
					bad |= 1;
				if (kgen_cache_get(dir, &k, &img, &n, &err) != KGEN_OK || !img)
					bad |= 2;
				else if (n != sizeof image || memcmp(img, image, n) != 0)
					bad |= 4;
				free(img);
			}
			_exit(bad);
		}
	}
	for (i = 0; i < WRITERS; i++) {
		ck_assert_int_eq(waitpid(pid[i], &status, 0), pid[i]);
		ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "writer %d: status %#x", i, status);
	}
	expect_hit(&k);
	ck_assert_int_eq(count_files(".tmp."), 0);
	ck_assert_int_eq(count_files(""), 1);
}
END_TEST

/* A directory that cannot be made or written: KGEN_EIO and the system's words. */
START_TEST(test_unwritable)
{
	struct kgen_cache_key k = base_key();
	char file[512], path[600];
	kgen_error err;
	int fds[2], status;
	pid_t pid;
	ssize_t n;

	snprintf(file, sizeof file, "%s/file", dir);
	write_bytes(file, "x", 1);
	snprintf(path, sizeof path, "%s/sub", file);
	ck_assert_int_eq(kgen_cache_put(path, &k, image, sizeof image, &err), KGEN_EIO);
	ck_assert_ptr_nonnull(strstr(err.message, "cannot create"));
	ck_assert_ptr_nonnull(strstr(err.message, "Not a directory"));
	ck_assert_int_eq(kgen_cache_put(file, &k, image, sizeof image, &err), KGEN_EIO);
	ck_assert_ptr_nonnull(strstr(err.message, "Not a directory"));

	/* A read-only directory of the user's own, as an unprivileged user even when run as root. */
	snprintf(path, sizeof path, "%s/ro", dir);
	ck_assert_int_eq(chmod(dir, 0755), 0);
	ck_assert_int_eq(mkdir(path, 0555), 0);
	if (geteuid() == 0)
		ck_assert_int_eq(chown(path, 65534, 65534), 0);
	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_int_ge(pid = fork(), 0);
	if (pid == 0) {
		close(fds[0]);
		if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
			_exit(2);
		if (kgen_cache_put(path, &k, image, sizeof image, &err) != KGEN_EIO)
			_exit(1);
		n = write(fds[1], err.message, strlen(err.message) + 1);
		_exit(n > 0 ? 0 : 3);
	}
	close(fds[1]);
	memset(err.message, 0, sizeof err.message);
	n = read(fds[0], err.message, sizeof err.message - 1);
	close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child: status %#x", status);
	ck_assert_int_gt(n, 0);
	ck_assert_msg(strstr(err.message, "cannot write") && strstr(err.message, path) &&
	              strstr(err.message, "Permission denied"), "message: %s", err.message);
}
END_TEST

START_TEST(test_bad_arguments)
{
	struct kgen_cache_key k = base_key(), nokey = base_key();
	kgen_error err;
	void *img;
	size_t n;

	nokey.arch = NULL;
	ck_assert_int_eq(kgen_cache_get(NULL, &k, &img, &n, &err), KGEN_EINVAL);
	ck_assert_int_eq(kgen_cache_get(dir, &nokey, &img, &n, &err), KGEN_EINVAL);
	ck_assert_int_eq(kgen_cache_get(dir, &k, NULL, &n, NULL), KGEN_EINVAL);
	ck_assert_int_eq(kgen_cache_put(dir, NULL, image, 1, &err), KGEN_EINVAL);
	ck_assert_int_eq(kgen_cache_put(dir, &k, NULL, 1, &err), KGEN_EINVAL);
	ck_assert_int_eq(kgen_cache_list(dir, NULL, &err), KGEN_EINVAL);
	ck_assert_int_eq(kgen_cache_clear(NULL, NULL, &err), KGEN_EINVAL);
	ck_assert_int_eq(kgen_cache_put("", &k, image, 1, &err), KGEN_EINVAL);
	ck_assert_int_eq(kgen_cache_get("", &k, &img, &n, &err), KGEN_EINVAL);
}
END_TEST

/* The listing of dir, as text (malloc()ed). */
static char *
listing(kgen_status want)
{
	char *text = NULL;
	size_t len = 0;
	kgen_error err;
	FILE *fp;

	ck_assert_ptr_nonnull(fp = open_memstream(&text, &len));
	ck_assert_int_eq(kgen_cache_list(dir, fp, &err), want);
	fclose(fp);
	return text;
}

/* A directory another user may write to, or that another user owns, is not
 * used at all: another user could plant an entry that runs in our context. */
START_TEST(test_untrusted_dir)
{
	struct kgen_cache_key k = base_key();
	char want[512], *text;
	kgen_error err;
	void *img = (void *)1;
	size_t n = 1;
	unsigned removed = 7;

	put_ok(&k);
	ck_assert_int_eq(chmod(dir, 0777), 0);
	snprintf(want, sizeof want, "the cache directory %s is writable by others (mode 777): not used (chmod go-w it, "
	         "or set KGEN_CACHE_DIR to a private directory)", dir);
	ck_assert_int_eq(kgen_cache_get(dir, &k, &img, &n, &err), KGEN_EIO);
	ck_assert_str_eq(err.message, want);
	ck_assert_ptr_null(img);
	ck_assert_int_eq(kgen_cache_put(dir, &k, image, sizeof image, &err), KGEN_EIO);
	ck_assert_str_eq(err.message, want);
	free(listing(KGEN_EIO));
	ck_assert_int_eq(kgen_cache_clear(dir, &removed, &err), KGEN_EIO);
	ck_assert_uint_eq(removed, 0);
	ck_assert_int_eq(count_files(".kgenc"), 1);  /* left alone */
	ck_assert_int_eq(chmod(dir, 0750), 0);
	expect_hit(&k);
	ck_assert_int_eq(chmod(dir, 0720), 0);  /* group-writable is others too */
	ck_assert_int_eq(kgen_cache_get(dir, &k, &img, &n, &err), KGEN_EIO);
	ck_assert_int_eq(chmod(dir, 0700), 0);
	if (geteuid() == 0) {  /* another owner: only root can make one */
		ck_assert_int_eq(chown(dir, 65534, 65534), 0);
		ck_assert_int_eq(kgen_cache_get(dir, &k, &img, &n, &err), KGEN_EIO);
		snprintf(want, sizeof want, "the cache directory %s belongs to user 65534, not to you: not used (set "
		         "KGEN_CACHE_DIR to a directory of your own)", dir);
		ck_assert_str_eq(err.message, want);
		ck_assert_int_eq(kgen_cache_put(dir, &k, image, sizeof image, &err), KGEN_EIO);
		ck_assert_int_eq(chown(dir, 0, 0), 0);
	}
	text = listing(KGEN_OK);
	ck_assert_ptr_nonnull(strstr(text, " reduce_sum sm_90 "));
	free(text);
}
END_TEST

/* An entry that is a symbolic link, writable by others or another user's is
 * a miss, left where it is, and `kgen cache list` says what it is. */
START_TEST(test_untrusted_entries)
{
	struct kgen_cache_key k = base_key();
	char path[512], real[600], *text;

	put_ok(&k);
	entry_path(&k, path, sizeof path);
	ck_assert_int_eq(chmod(path, 0666), 0);
	expect_miss(&k);
	ck_assert(exists(path));
	text = listing(KGEN_OK);
	ck_assert_ptr_nonnull(strstr(text, "another user's or writable by others, not an entry"));
	free(text);
	ck_assert_int_eq(chmod(path, 0644), 0);
	expect_hit(&k);
	if (geteuid() == 0) {
		ck_assert_int_eq(chown(path, 65534, 65534), 0);
		expect_miss(&k);
		ck_assert(exists(path));
		ck_assert_int_eq(chown(path, 0, 0), 0);
		expect_hit(&k);
	}
	/* A link to a valid entry elsewhere. */
	snprintf(real, sizeof real, "%s/elsewhere", dir);
	ck_assert_int_eq(rename(path, real), 0);
	ck_assert_int_eq(symlink(real, path), 0);
	expect_miss(&k);
	ck_assert(exists(path) && exists(real));
	text = listing(KGEN_OK);
	ck_assert_ptr_nonnull(strstr(text, "a symbolic link, not an entry"));
	free(text);
}
END_TEST

/* Entries are capped in size: a huge file under an entry's name is not read
 * (it is removed as damaged), and a huge image is not written. */
START_TEST(test_entry_size_cap)
{
	struct kgen_cache_key k = base_key();
	char path[512];
	kgen_error err;
	int fd;

	entry_path(&k, path, sizeof path);
	ck_assert_int_ge(fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600), 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)65 << 20), 0);  /* sparse: no 65 MB written */
	close(fd);
	expect_miss(&k);
	ck_assert(!exists(path));
	ck_assert_int_eq(kgen_cache_put(dir, &k, image, (size_t)65 << 20, &err), KGEN_EINVAL);
	ck_assert_ptr_nonnull(strstr(err.message, "over the cache's 67108864-byte entries"));
	ck_assert(!exists(path));
}
END_TEST

/* A FIFO named like an entry: listing does not hang on it. */
START_TEST(test_list_fifo)
{
	struct kgen_cache_key k = base_key();
	char path[512], *text;

	entry_path(&k, path, sizeof path);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	alarm(10);
	text = listing(KGEN_OK);
	alarm(0);
	ck_assert_ptr_nonnull(strstr(text, "not a regular file, not an entry"));
	free(text);
}
END_TEST

/* The key's NVRTC version names the library file too: a patch release of
 * NVRTC (another file) does not reuse another's binaries. */
const char *kgen_nvrtc_version(void);

START_TEST(test_nvrtc_version_names_the_library)
{
	const char *v = kgen_nvrtc_version();

	ck_assert_msg(strstr(v, " (libnvrtc.so") != NULL && strstr(v, " bytes)") != NULL, "version: %s", v);
	ck_assert_msg(v[0] >= '1' && v[0] <= '9' && strchr(v, '.') < strchr(v, ' '), "version: %s", v);
}
END_TEST

/* The key's options are the ones this NVRTC takes of kgen's list, and
 * kgen_compile() passes them: with --minimal a source that uses a texture
 * object does not compile (docs/api.md says so), a plain one does. */
const char *kgen_compile_options(void);

START_TEST(test_compile_options_by_nvrtc_version)
{
	const char *base = "--std=c++17 --device-as-default-execution-space", *want;
	const char *plain = "extern \"C\" __global__ void k(float *p) { *p = 1.0f; }\n";
	const char *texture = "extern \"C\" __global__ void k(cudaTextureObject_t t, float *p) { *p = 0; }\n";
	int major = 0, minor = 0, v;
	char buf[256], *log = NULL;
	kgen_error err;
	size_t size;
	void *cubin;

	nvrtcVersion(&major, &minor);
	v = major * 100 + minor;
	want = v >= 1209 ? " --minimal --no-cache" : v >= 1204 ? " --minimal" : "";
	snprintf(buf, sizeof buf, "%s%s", base, want);
	ck_assert_str_eq(kgen_compile_options(), buf);
	ck_assert_msg(kgen_compile(plain, "p.cu", "sm_90", KGEN_IMAGE_CUBIN, &cubin, &size, NULL, &err) == KGEN_OK, "%s",
	              err.message);
	free(cubin);
	ck_assert_int_eq(kgen_compile(plain, "p.cu", "sm_90", (kgen_image)7, &cubin, &size, NULL, &err), KGEN_EINVAL);
	ck_assert_str_eq(err.message, "kgen_compile: image kind 7: KGEN_IMAGE_CUBIN or KGEN_IMAGE_PTX");
	if (v < 1204)
		return;
	ck_assert_int_eq(kgen_compile(texture, "t.cu", "sm_90", KGEN_IMAGE_CUBIN, &cubin, &size, &log, &err),
	                 KGEN_ECOMPILE);
	ck_assert_msg(log && strstr(log, "cudaTextureObject_t") != NULL, "log: %s", log ? log : "(none)");
	free(log);
}
END_TEST

static Suite *
cache_suite(void)
{
	Suite *s = suite_create("cache");
	TCase *tc = tcase_create("cache");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_miss_put_hit);
	tcase_add_test(tc, test_empty_image);
	tcase_add_test(tc, test_keying);
	tcase_add_test(tc, test_collision_is_miss);
	tcase_add_test(tc, test_every_byte_names);
	tcase_add_test(tc, test_two_words_name_apart);
	tcase_add_loop_test(tc, test_corrupt, 0, 12);
	tcase_add_test(tc, test_not_a_file);
	tcase_add_test(tc, test_enabled);
	tcase_add_test(tc, test_dir_order);
	tcase_add_test(tc, test_dir_created);
	tcase_add_test(tc, test_clear);
	tcase_add_test(tc, test_list);
	tcase_add_test(tc, test_two_writers);
	tcase_add_test(tc, test_unwritable);
	tcase_add_test(tc, test_bad_arguments);
	tcase_add_test(tc, test_untrusted_dir);
	tcase_add_test(tc, test_untrusted_entries);
	tcase_add_test(tc, test_entry_size_cap);
	tcase_add_test(tc, test_list_fifo);
	tcase_add_test(tc, test_nvrtc_version_names_the_library);
	tcase_add_test(tc, test_compile_options_by_nvrtc_version);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(cache_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
