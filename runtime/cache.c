/* cache.c - compiled kernels kept on disk, keyed by everything that changes them.
 * The entry format and the rules are in cache.h. */
#include "config.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "gen/util.h"
#include "runtime/cache.h"

#define MAGIC "KGENC3\n"  /* KGENC1: FNV-1a a byte at a time; KGENC2: words without the fold */
#define MAGIC_FAMILY "KGENC"  /* of any format: an older kgen's entry */
#define MAGIC_LEN 7
#define SUFFIX ".kgenc"
#define TMP_MARK ".kgenc.tmp."
#define STALE_TMP_SECONDS 60
/* No cubin kgen generates comes near this; anything larger is not an entry. */
#define MAX_ENTRY_BYTES (64u << 20)

/* The key fields in the order the entry stores them, then the image. */
enum { F_NAME, F_OPTIONS, F_ARCH, F_NVRTC, F_KGEN, F_SOURCE, F_IMAGE, NFIELDS };
#define HEADER_LEN (MAGIC_LEN + 8 * NFIELDS)
#define SUM_LEN 8

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL
#define WORD_PRIME 0x9e3779b97f4a7c15ULL  /* odd, its bits spread: 2^64 / the golden ratio */

/* A 64-bit hash of 8-byte little-endian words, then of the last bytes one
 * at a time (FNV-1a).  A word step xors the word in, multiplies by an odd
 * number and folds the high half onto the low (h ^= h >> 32), so that a
 * word's high bytes reach every bit of the next step; each step is a
 * bijection of the state, and of the word for a given state, so any one
 * changed word always changes the result.  Eight times fewer dependent
 * multiplies than FNV-1a a byte at a time, which was most of a disk hit
 * (a 40 KB source and its cubin, hashed for the name and checked against
 * the sum).  Not a defence against tampering: the key comparison, not the
 * hash, decides a hit. */
static uint64_t
fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;

	for (; n >= 8; n -= 8, s += 8) {
		h ^= (uint64_t)s[0] | (uint64_t)s[1] << 8 | (uint64_t)s[2] << 16 | (uint64_t)s[3] << 24 |
		     (uint64_t)s[4] << 32 | (uint64_t)s[5] << 40 | (uint64_t)s[6] << 48 | (uint64_t)s[7] << 56;
		h *= WORD_PRIME;
		h ^= h >> 32;
	}
	while (n--) {
		h ^= *s++;
		h *= FNV_PRIME;
	}
	return h;
}

static void
put_u64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t
get_u64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static int
key_valid(const struct kgen_cache_key *key)
{
	return key && key->source && key->options && key->arch && key->nvrtc_version && key->kgen_version;
}

/* The key's strings in entry order (F_NAME .. F_SOURCE). */
static void
key_fields(const struct kgen_cache_key *key, const char *f[F_IMAGE])
{
	f[F_NAME] = key->name ? key->name : "";
	f[F_OPTIONS] = key->options;
	f[F_ARCH] = key->arch;
	f[F_NVRTC] = key->nvrtc_version;
	f[F_KGEN] = key->kgen_version;
	f[F_SOURCE] = key->source;
}

void
kgen_cache_entry_name(const struct kgen_cache_key *key, char name[KGEN_CACHE_NAME_MAX])
{
	const char *f[F_IMAGE];
	unsigned char len[8];
	uint64_t h = FNV_OFFSET;
	size_t n;
	int i;

	key_fields(key, f);
	for (i = 0; i < F_IMAGE; i++) {  /* length first: "ab"+"c" and "a"+"bc" differ */
		n = strlen(f[i]);
		put_u64(len, n);
		h = fnv1a(h, len, sizeof len);
		h = fnv1a(h, f[i], n);
	}
	snprintf(name, KGEN_CACHE_NAME_MAX, "%016llx" SUFFIX, (unsigned long long)h);
}

static int
is_hex16(const char *s)
{
	int i;

	for (i = 0; i < 16; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

/* "<16 hex>.kgenc": an entry. */
static int
is_entry_name(const char *s)
{
	return strlen(s) == 16 + strlen(SUFFIX) && is_hex16(s) && strcmp(s + 16, SUFFIX) == 0;
}

/* "<16 hex>.kgenc.tmp.<something>": a writer's temporary. */
static int
is_tmp_name(const char *s)
{
	size_t m = strlen(TMP_MARK);

	return strlen(s) > 16 + m && is_hex16(s) && strncmp(s + 16, TMP_MARK, m) == 0;
}

static char *
join(const char *dir, const char *name, kgen_error *err)
{
	strbuf b;
	char *s;

	sb_init(&b);
	sb_printf(&b, "%s/%s", dir, name);
	if (!(s = sb_take(&b)))
		kgen_fail(err, KGEN_ENOMEM, "out of memory");
	return s;
}

kgen_status
kgen_cache_dir(char *buf, size_t n, kgen_error *err)
{
	const char *v;
	int r;

	if (!buf || n == 0)
		return kgen_fail(err, KGEN_EINVAL, "kgen_cache_dir: no buffer");
	if ((v = getenv("KGEN_CACHE_DIR")) && *v)
		r = snprintf(buf, n, "%s", v);
	else if ((v = getenv("XDG_CACHE_HOME")) && v[0] == '/')  /* XDG: a relative path is invalid */
		r = snprintf(buf, n, "%s/kgen", v);
	else if ((v = getenv("HOME")) && *v)
		r = snprintf(buf, n, "%s/.cache/kgen", v);
	else
		return kgen_fail(err, KGEN_EINVAL, "no cache directory: set KGEN_CACHE_DIR or HOME");
	if (r < 0 || (size_t)r >= n)
		return kgen_fail(err, KGEN_EINVAL, "cache directory name too long (%d bytes)", r);
	return KGEN_OK;
}

int
kgen_cache_enabled(void)
{
	const char *v = getenv("KGEN_CACHE");

	return !(v && (strcmp(v, "0") == 0 || strcmp(v, "off") == 0 || strcmp(v, "no") == 0 ||
	               strcmp(v, "false") == 0));
}

/* Read exactly n bytes; 1 on success, 0 on a short file, -1 on an error. */
static int
read_all(int fd, void *buf, size_t n)
{
	char *p = buf;
	ssize_t r;

	while (n > 0) {
		r = read(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
		p += r;
		n -= (size_t)r;
	}
	return 1;
}

static int
write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	ssize_t r;

	while (n > 0) {
		r = write(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/* Parse the header of an entry of `size` bytes into len[]; 0 when the magic
 * or the lengths do not add up to the file's size. */
static int
parse_header(const unsigned char *buf, uint64_t size, uint64_t len[NFIELDS])
{
	uint64_t total = HEADER_LEN + SUM_LEN;
	int i;

	if (size < total || memcmp(buf, MAGIC, MAGIC_LEN) != 0)
		return 0;
	for (i = 0; i < NFIELDS; i++) {
		len[i] = get_u64(buf + MAGIC_LEN + 8 * i);
		if (len[i] > size - total)  /* also keeps the sum from overflowing */
			return 0;
		total += len[i];
	}
	return total == size;
}

/* Check a whole entry against its checksum and key; a pointer to the image
 * when it is key's, NULL otherwise. */
static const unsigned char *
check_entry(const unsigned char *buf, size_t size, const struct kgen_cache_key *key, uint64_t len[NFIELDS])
{
	const char *f[F_IMAGE];
	const unsigned char *p;
	int i;

	if (!parse_header(buf, size, len))
		return NULL;
	if (fnv1a(FNV_OFFSET, buf, size - SUM_LEN) != get_u64(buf + size - SUM_LEN))
		return NULL;
	key_fields(key, f);
	p = buf + HEADER_LEN;
	for (i = 0; i < F_IMAGE; i++) {
		if (len[i] != strlen(f[i]) || memcmp(p, f[i], len[i]) != 0)
			return NULL;
		p += len[i];
	}
	return p;
}

/* Whether a file or directory may be trusted to hold our binaries: owned
 * by us and writable by nobody else, as ssh and git ask of their files
 * (another user could otherwise plant an entry that runs in our context). */
static int
private_to_us(const struct stat *st)
{
	return st->st_uid == geteuid() && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

/* KGEN_OK when dir may be used (or does not exist yet: *exists 0); KGEN_EIO
 * saying why not when another user owns it or may write to it. */
static kgen_status
trusted_dir(const char *dir, int *exists, kgen_error *err)
{
	struct stat st;

	*exists = 0;
	if (stat(dir, &st) != 0)
		return errno == ENOENT ? KGEN_OK : kgen_fail(err, KGEN_EIO, "cannot use %s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return kgen_fail(err, KGEN_EIO, "cannot use %s: %s", dir, strerror(ENOTDIR));
	*exists = 1;
	if (st.st_uid != geteuid())
		return kgen_fail(err, KGEN_EIO, "the cache directory %s belongs to user %ld, not to you: not used "
		                 "(set KGEN_CACHE_DIR to a directory of your own)", dir, (long)st.st_uid);
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return kgen_fail(err, KGEN_EIO, "the cache directory %s is writable by others (mode %03o): not used "
		                 "(chmod go-w it, or set KGEN_CACHE_DIR to a private directory)", dir,
		                 (unsigned)(st.st_mode & 0777));
	return KGEN_OK;
}

kgen_status
kgen_cache_get(const char *dir, const struct kgen_cache_key *key, void **image, size_t *size, kgen_error *err)
{
	char name[KGEN_CACHE_NAME_MAX];
	uint64_t len[NFIELDS];
	const unsigned char *img;
	unsigned char *buf = NULL;
	struct stat st, now;
	char *path;
	int fd, r, e;
	kgen_status status = KGEN_OK;

	if (image)
		*image = NULL;
	if (size)
		*size = 0;
	if (!dir || !*dir || !key_valid(key) || !image || !size)
		return kgen_fail(err, KGEN_EINVAL, "kgen_cache_get: NULL argument");
	if ((status = trusted_dir(dir, &e, err)) != KGEN_OK || !e)
		return status;  /* no directory: a miss */
	kgen_cache_entry_name(key, name);
	if (!(path = join(dir, name, err)))
		return KGEN_ENOMEM;
	/* O_NONBLOCK: a FIFO under the entry's name must not hang us;
	 * O_NOFOLLOW: a symbolic link is no entry (ELOOP: a miss). */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)) < 0) {
		e = errno;
		if (e != ENOENT && e != ENOTDIR && e != ELOOP)
			status = kgen_fail(err, KGEN_EIO, "cannot open %s: %s", path, strerror(e));
		free(path);
		return status;  /* no entry: a miss */
	}
	if (fstat(fd, &st) != 0) {
		status = kgen_fail(err, KGEN_EIO, "cannot stat %s: %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode) || !private_to_us(&st))
		goto out;  /* not ours to trust or remove: a miss */
	if ((uint64_t)st.st_size < HEADER_LEN + SUM_LEN || (uint64_t)st.st_size > MAX_ENTRY_BYTES)
		goto corrupt;
	if (!(buf = malloc((size_t)st.st_size))) {
		status = kgen_fail(err, KGEN_ENOMEM, "out of memory reading %s", path);
		goto out;
	}
	if ((r = read_all(fd, buf, (size_t)st.st_size)) < 0) {
		status = kgen_fail(err, KGEN_EIO, "cannot read %s: %s", path, strerror(errno));
		goto out;
	}
	if (r == 0 || !(img = check_entry(buf, (size_t)st.st_size, key, len)))
		goto corrupt;
	if (!(*image = malloc(len[F_IMAGE] + 1))) {
		status = kgen_fail(err, KGEN_ENOMEM, "out of memory reading %s", path);
		goto out;
	}
	memcpy(*image, img, len[F_IMAGE]);
	((char *)*image)[len[F_IMAGE]] = '\0';  /* PTX stays a string */
	*size = len[F_IMAGE];
	goto out;
corrupt:
	/* Damaged, or another key's (a hash collision): drop it, the caller
	 * compiles and puts a good one.  Only if it is still the file we read,
	 * not a good entry a writer has just renamed over it. */
	if (lstat(path, &now) == 0 && now.st_dev == st.st_dev && now.st_ino == st.st_ino)
		unlink(path);
out:
	close(fd);
	free(buf);
	free(path);
	return status;
}

/* mkdir -p dir, each new directory mode 0700. */
static kgen_status
make_dirs(const char *dir, kgen_error *err)
{
	struct stat st;
	char *copy, *p, c;
	kgen_status status = KGEN_OK;

	if (stat(dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return kgen_fail(err, KGEN_EIO, "cannot create %s: %s", dir, strerror(ENOTDIR));
		return KGEN_OK;
	}
	if (!(copy = kgen_strdup(dir)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	for (p = copy + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		c = *p;
		*p = '\0';
		if (p[-1] != '/' && mkdir(copy, 0700) != 0 && errno != EEXIST) {
			status = kgen_fail(err, KGEN_EIO, "cannot create %s: %s", copy, strerror(errno));
			break;
		}
		*p = c;
		if (!c)
			break;
	}
	if (status == KGEN_OK && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)))
		status = kgen_fail(err, KGEN_EIO, "cannot create %s: %s", dir, strerror(ENOTDIR));
	free(copy);
	return status;
}

kgen_status
kgen_cache_put(const char *dir, const struct kgen_cache_key *key, const void *image, size_t size, kgen_error *err)
{
	static atomic_ulong counter;
	char name[KGEN_CACHE_NAME_MAX];
	const char *f[F_IMAGE];
	size_t len[NFIELDS], total;
	unsigned char *buf, *p;
	char *path = NULL, *tmp = NULL;
	strbuf b;
	int fd = -1, i, tries, e;
	kgen_status status;

	if (!dir || !*dir || !key_valid(key) || (!image && size > 0))
		return kgen_fail(err, KGEN_EINVAL, "kgen_cache_put: NULL argument");
	if ((status = make_dirs(dir, err)) != KGEN_OK || (status = trusted_dir(dir, &e, err)) != KGEN_OK)
		return status;

	/* The whole entry in memory, written with one write(). */
	key_fields(key, f);
	total = HEADER_LEN + SUM_LEN;
	for (i = 0; i < F_IMAGE; i++)
		total += len[i] = strlen(f[i]);
	len[F_IMAGE] = size;
	if (size > MAX_ENTRY_BYTES - total || total > MAX_ENTRY_BYTES)
		return kgen_fail(err, KGEN_EINVAL, "kgen_cache_put: a %zu-byte image is over the cache's %u-byte entries",
		                 size, MAX_ENTRY_BYTES);
	total += size;
	if (!(buf = malloc(total)))
		return kgen_fail(err, KGEN_ENOMEM, "out of memory");
	memcpy(buf, MAGIC, MAGIC_LEN);
	for (i = 0; i < NFIELDS; i++)
		put_u64(buf + MAGIC_LEN + 8 * i, len[i]);
	p = buf + HEADER_LEN;
	for (i = 0; i < F_IMAGE; i++) {
		memcpy(p, f[i], len[i]);
		p += len[i];
	}
	if (size)
		memcpy(p, image, size);
	p += size;
	put_u64(p, fnv1a(FNV_OFFSET, buf, total - SUM_LEN));

	kgen_cache_entry_name(key, name);
	if (!(path = join(dir, name, err))) {
		status = KGEN_ENOMEM;
		goto out;
	}
	/* A name no other writer uses: pid and a counter, O_EXCL in case a pid
	 * is shared (another pid namespace on the same directory). */
	for (tries = 0; fd < 0 && tries < 100; tries++) {
		free(tmp);
		sb_init(&b);
		sb_printf(&b, "%s.tmp.%ld.%lu", path, (long)getpid(), (unsigned long)atomic_fetch_add(&counter, 1));
		if (!(tmp = sb_take(&b))) {
			status = kgen_fail(err, KGEN_ENOMEM, "out of memory");
			goto out;
		}
		if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		status = kgen_fail(err, KGEN_EIO, "cannot write %s: %s", path, strerror(errno));
		free(tmp);
		tmp = NULL;  /* not ours: leave it */
		goto out;
	}
	/* No fsync: after a crash a torn entry fails its checksum and is a miss. */
	if (write_all(fd, buf, total) != 0) {
		e = errno;
		close(fd);
		status = kgen_fail(err, KGEN_EIO, "cannot write %s: %s", path, strerror(e));
		goto out;
	}
	if (close(fd) != 0) {
		status = kgen_fail(err, KGEN_EIO, "cannot write %s: %s", path, strerror(errno));
		goto out;
	}
	if (rename(tmp, path) != 0) {
		status = kgen_fail(err, KGEN_EIO, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
		goto out;
	}
	free(tmp);
	tmp = NULL;
out:
	if (tmp)
		unlink(tmp);
	free(tmp);
	free(path);
	free(buf);
	return status;
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir for which keep() says yes, sorted; *names NULL and
 * KGEN_OK when dir does not exist. */
static kgen_status
scan_dir(const char *dir, int (*keep)(const char *), char ***names, size_t *count, kgen_error *err)
{
	DIR *d;
	struct dirent *de;
	char **v = NULL, **nv;
	size_t n = 0, cap = 0;

	*names = NULL;
	*count = 0;
	if (!(d = opendir(dir))) {
		if (errno == ENOENT)
			return KGEN_OK;
		return kgen_fail(err, KGEN_EIO, "cannot read %s: %s", dir, strerror(errno));
	}
	while ((de = readdir(d))) {
		if (!keep(de->d_name))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			if (!(nv = realloc(v, cap * sizeof *v)))
				goto nomem;
			v = nv;
		}
		if (!(v[n] = kgen_strdup(de->d_name)))
			goto nomem;
		n++;
	}
	closedir(d);
	if (n > 1)
		qsort(v, n, sizeof *v, cmp_names);
	*names = v;
	*count = n;
	return KGEN_OK;
nomem:
	closedir(d);
	while (n > 0)
		free(v[--n]);
	free(v);
	return kgen_fail(err, KGEN_ENOMEM, "out of memory");
}

static void
free_names(char **v, size_t n)
{
	while (n > 0)
		free(v[--n]);
	free(v);
}

/* "42s", "7m", "3h", "12d". */
static void
format_age(char *buf, size_t n, time_t now, time_t then)
{
	long long s = now > then ? (long long)(now - then) : 0;

	if (s < 60)
		snprintf(buf, n, "%llds", s);
	else if (s < 3600)
		snprintf(buf, n, "%lldm", s / 60);
	else if (s < 86400)
		snprintf(buf, n, "%lldh", s / 3600);
	else
		snprintf(buf, n, "%lldd", s / 86400);
}

/* One line for the entry at path: its size, program name, arch and age,
 * read from the header without loading the whole file. */
static void
list_one(FILE *fp, const char *dir, const char *file, time_t now)
{
	unsigned char head[HEADER_LEN];
	uint64_t len[NFIELDS];
	struct stat st;
	char age[32], *path, *key = NULL;
	size_t n;
	int fd;

	if (!(path = join(dir, file, NULL)))
		return;
	/* Not blocking on a FIFO, not following a link planted under an entry's name. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0) {
		if (errno == ELOOP)
			fprintf(fp, "%s - ? ? - a symbolic link, not an entry\n", file);
		free(path);
		return;  /* removed since the scan */
	}
	free(path);
	if (fstat(fd, &st) != 0) {
		close(fd);
		return;
	}
	if (!S_ISREG(st.st_mode) || !private_to_us(&st)) {
		fprintf(fp, "%s - ? ? - %s, not an entry\n", file,
		        !S_ISREG(st.st_mode) ? "not a regular file" : "another user's or writable by others");
		close(fd);
		return;
	}
	format_age(age, sizeof age, now, st.st_mtime);
	memset(head, 0, sizeof head);  /* a short file leaves the rest unread */
	if (read_all(fd, head, sizeof head) == 1 && memcmp(head, MAGIC, MAGIC_LEN) == 0 &&
	    parse_header(head, (uint64_t)st.st_size, len) && (n = len[F_NAME] + len[F_OPTIONS] + len[F_ARCH]) < 65536 &&
	    (key = malloc(n + 1)) && read_all(fd, key, n) == 1) {
		if (len[F_NAME] == 0)
			fprintf(fp, "%s %lld - ", file, (long long)st.st_size);
		else
			fprintf(fp, "%s %lld %.*s ", file, (long long)st.st_size, (int)len[F_NAME], key);
		fprintf(fp, "%.*s %s\n", (int)len[F_ARCH], key + len[F_NAME] + len[F_OPTIONS], age);
	} else if (memcmp(head, MAGIC_FAMILY, strlen(MAGIC_FAMILY)) == 0 && memcmp(head, MAGIC, MAGIC_LEN) != 0) {
		fprintf(fp, "%s %lld ? ? %s an older kgen's entry, never read (kgen cache clear removes it)\n", file,
		        (long long)st.st_size, age);
	} else {
		fprintf(fp, "%s %lld ? ? %s damaged\n", file, (long long)st.st_size, age);
	}
	free(key);
	close(fd);
}

kgen_status
kgen_cache_list(const char *dir, FILE *fp, kgen_error *err)
{
	char **names;
	size_t n, i;
	time_t now = time(NULL);
	kgen_status status;
	int exists;

	if (!dir || !*dir || !fp)
		return kgen_fail(err, KGEN_EINVAL, "kgen_cache_list: NULL argument");
	if ((status = trusted_dir(dir, &exists, err)) != KGEN_OK)
		return status;
	if ((status = scan_dir(dir, is_entry_name, &names, &n, err)) != KGEN_OK)
		return status;
	for (i = 0; i < n; i++)
		list_one(fp, dir, names[i], now);
	free_names(names, n);
	if (ferror(fp))
		return kgen_fail(err, KGEN_EIO, "cannot write the cache listing: %s", strerror(errno));
	return KGEN_OK;
}

static int
is_ours(const char *s)
{
	return is_entry_name(s) || is_tmp_name(s);
}

kgen_status
kgen_cache_clear(const char *dir, unsigned *removed, kgen_error *err)
{
	char **names, *path;
	size_t n, i;
	struct stat st;
	time_t now = time(NULL);
	unsigned count = 0;
	kgen_status status;
	int exists;

	if (removed)
		*removed = 0;
	if (!dir || !*dir)
		return kgen_fail(err, KGEN_EINVAL, "kgen_cache_clear: NULL argument");
	if ((status = trusted_dir(dir, &exists, err)) != KGEN_OK)
		return status;
	if ((status = scan_dir(dir, is_ours, &names, &n, err)) != KGEN_OK)
		return status;
	for (i = 0; i < n && status == KGEN_OK; i++) {
		if (!(path = join(dir, names[i], err))) {
			status = KGEN_ENOMEM;
			break;
		}
		/* Regular files only; a temporary only once its writer is surely gone. */
		if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
		    (is_entry_name(names[i]) || now - st.st_mtime >= STALE_TMP_SECONDS)) {
			if (unlink(path) == 0)
				count++;
			else if (errno != ENOENT)
				status = kgen_fail(err, KGEN_EIO, "cannot remove %s: %s", path, strerror(errno));
		}
		free(path);
	}
	free_names(names, n);
	if (removed)
		*removed = count;
	return status;
}
