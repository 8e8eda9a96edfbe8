/*
 * fake_nccl.c - a stand-in for libnccl.so.2, so that kgen's multi-GPU path
 * (kgen_multi_*, runtime/multi.c) is tested without GPUs (issue 26).  Built
 * as tests/fake_nccl/libnccl.so.2 and found first on LD_LIBRARY_PATH, beside
 * the fake driver (tests/fake_cuda/), whose "device" memory is host memory.
 *
 * The collectives compute for real on that memory: ncclAllReduce and
 * ncclReduce (sum, prod, max, min of i32, u32, i64, f32, f64),
 * ncclAllGather (in place too) and ncclSend/ncclRecv, matched by rank and
 * peer.  As in one process driving several GPUs with the real NCCL, the
 * calls of a communicator set of more than one rank must come in one
 * ncclGroupStart/ncclGroupEnd group (else ncclInvalidUsage): they run at
 * ncclGroupEnd, after fake_nccl_before_group (set by the test) has seen
 * them, so that the test plays the part of the kernels the fake driver
 * does not run (each GPU's partial, written where the call reads it).
 * Every call is recorded (fake_nccl_calls); communicators are counted.
 * FAKE_NCCL_FAIL=NAME makes every call of NAME fail with ncclInternalError.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define API __attribute__((visibility("default")))

enum { SUCCESS = 0, INTERNAL_ERROR = 3, INVALID_ARGUMENT = 4, INVALID_USAGE = 5 };
enum { I8 = 0, I32 = 2, U32 = 3, I64 = 4, F32 = 7, F64 = 8 };
enum { SUM = 0, PROD = 1, MAX = 2, MIN = 3 };

struct ncclComm {
	int rank, nranks, device;
	struct ncclComm **set;  /* every rank's, from one ncclCommInitAll */
};
typedef struct ncclComm *ncclComm_t;

/* What the test reads back (and may change in fake_nccl_before_group). */
struct fake_nccl_call {
	char name[16];              /* "ncclAllReduce", ... */
	int rank, nranks, root;     /* root: ncclReduce's; the peer of ncclSend/ncclRecv */
	const void *send;
	void *recv;
	size_t count;
	int type, op;
	void *stream;
};
API struct fake_nccl_call fake_nccl_calls[256];
API int fake_nccl_ncalls;
API int fake_nccl_inits;    /* ncclCommInitAll calls that succeeded */
API int fake_nccl_comms;    /* live communicators */
API int fake_nccl_groups;   /* groups ended */
API void (*fake_nccl_before_group)(struct fake_nccl_call *calls, int n);

static int depth, first;  /* the group's depth; its first call in fake_nccl_calls */

static int
failing(const char *name)
{
	const char *want = getenv("FAKE_NCCL_FAIL");

	return want && !strcmp(want, name);
}

API int ncclGetVersion(int *v) { *v = 22809; return SUCCESS; }

API const char *
ncclGetErrorString(int r)
{
	return r == INTERNAL_ERROR ? "internal error (fake)" : r == INVALID_USAGE ? "invalid usage (fake)"
	     : r == INVALID_ARGUMENT ? "invalid argument (fake)" : "no error";
}

API int
ncclCommInitAll(ncclComm_t *comms, int n, const int *devices)
{
	struct ncclComm **set;
	int i;

	if (failing("ncclCommInitAll"))
		return INTERNAL_ERROR;
	if (n < 1 || !(set = calloc((size_t)n, sizeof *set)))
		return INVALID_ARGUMENT;
	for (i = 0; i < n; i++) {
		if (!(comms[i] = calloc(1, sizeof **comms)))
			return INTERNAL_ERROR;
		*comms[i] = (struct ncclComm){ .rank = i, .nranks = n, .device = devices ? devices[i] : i, .set = set };
		set[i] = comms[i];
	}
	fake_nccl_inits++;
	fake_nccl_comms += n;
	return SUCCESS;
}

API int
ncclCommDestroy(ncclComm_t c)
{
	int i, last = 1;

	if (!c)
		return INVALID_ARGUMENT;
	c->set[c->rank] = NULL;
	for (i = 0; i < c->nranks; i++)
		last &= !c->set[i];
	if (last)
		free(c->set);
	free(c);
	fake_nccl_comms--;
	return SUCCESS;
}

static size_t
type_size(int t)
{
	return t == I8 ? 1 : t == I32 || t == U32 || t == F32 ? 4 : 8;
}

/* a = a op b, element k, in type t. */
#define APPLY(T) \
	do { \
		T x = ((T *)a)[k], y = ((const T *)b)[k]; \
		((T *)a)[k] = op == SUM ? x + y : op == PROD ? x * y : op == MAX ? (x < y ? y : x) : (y < x ? y : x); \
	} while (0)
static void
apply(void *a, const void *b, size_t count, int t, int op)
{
	size_t k;

	for (k = 0; k < count; k++)
		switch (t) {
		case I32: APPLY(int32_t); break;
		case U32: APPLY(uint32_t); break;
		case I64: APPLY(int64_t); break;
		case F32: APPLY(float); break;
		default: APPLY(double); break;
		}
}

/* The calls [from, to) of one kind, one per rank, in rank order; 0 if any is missing. */
static int
by_rank(int from, int to, const char *name, struct fake_nccl_call **r, int nranks)
{
	int i, found = 0;

	memset(r, 0, sizeof *r * (size_t)nranks);
	for (i = from; i < to; i++)
		if (!strcmp(fake_nccl_calls[i].name, name) && !r[fake_nccl_calls[i].rank]) {
			r[fake_nccl_calls[i].rank] = &fake_nccl_calls[i];
			found++;
		}
	return found == nranks;
}

static int
reduce(struct fake_nccl_call **c, int n, int all)
{
	size_t bytes = c[0]->count * type_size(c[0]->type);
	char *acc = malloc(bytes ? bytes : 1);
	int i;

	if (!acc)
		return INTERNAL_ERROR;
	memcpy(acc, c[0]->send, bytes);
	for (i = 1; i < n; i++)
		apply(acc, c[i]->send, c[0]->count, c[0]->type, c[0]->op);
	for (i = 0; i < n; i++)
		if (all || i == c[0]->root)
			memcpy(c[i]->recv, acc, bytes);
	free(acc);
	return SUCCESS;
}

static int
gather(struct fake_nccl_call **c, int n)
{
	size_t bytes = c[0]->count * type_size(c[0]->type);
	char *all = malloc(bytes * (size_t)n + 1);
	int i;

	if (!all)
		return INTERNAL_ERROR;
	for (i = 0; i < n; i++)  /* first, every part: in place, they are the receive buffers */
		memcpy(all + (size_t)i * bytes, c[i]->send, bytes);
	for (i = 0; i < n; i++)
		memcpy(c[i]->recv, all, bytes * (size_t)n);
	free(all);
	return SUCCESS;
}

/* Each ncclSend of the group into its peer's ncclRecv from it. */
static int
send_recv(int from, int to)
{
	int i, j, matched;

	for (i = from; i < to; i++) {
		struct fake_nccl_call *s = &fake_nccl_calls[i];
		if (strcmp(s->name, "ncclSend"))
			continue;
		for (matched = 0, j = from; j < to && !matched; j++) {
			struct fake_nccl_call *r = &fake_nccl_calls[j];
			if (!strcmp(r->name, "ncclRecv") && r->rank == s->root && r->root == s->rank && r->count == s->count) {
				memcpy(r->recv, s->send, s->count * type_size(s->type));
				r->name[0] = 'x';  /* taken */
				matched = 1;
			}
		}
		if (!matched)
			return INVALID_USAGE;
	}
	for (i = from; i < to; i++)
		if (!strcmp(fake_nccl_calls[i].name, "ncclRecv"))
			return INVALID_USAGE;  /* a receive with no send: the real NCCL would hang */
	return SUCCESS;
}

/* The group's calls, collective by collective. */
static int
run(int from, int to)
{
	static const char *const kinds[] = { "ncclAllReduce", "ncclReduce", "ncclAllGather" };
	struct fake_nccl_call *c[64];
	int k, n, r;

	if (from == to)
		return SUCCESS;
	if (fake_nccl_before_group)
		fake_nccl_before_group(&fake_nccl_calls[from], to - from);
	n = fake_nccl_calls[from].nranks;
	for (k = 0; k < 3; k++) {
		int any = 0, i;
		for (i = from; i < to; i++)
			any |= !strcmp(fake_nccl_calls[i].name, kinds[k]);
		if (!any)
			continue;
		if (!by_rank(from, to, kinds[k], c, n))
			return INVALID_USAGE;  /* a collective every rank must join */
		r = k == 2 ? gather(c, n) : reduce(c, n, k == 0);
		if (r)
			return r;
	}
	return send_recv(from, to);
}

static int
record(const char *name, ncclComm_t comm, const void *send, void *recv, size_t count, int type, int op, int root,
       void *stream)
{
	struct fake_nccl_call *c;

	if (!comm || failing(name))
		return !comm ? INVALID_ARGUMENT : INTERNAL_ERROR;
	if (fake_nccl_ncalls >= 256 || (type != I8 && type != I32 && type != U32 && type != I64 && type != F32 && type != F64))
		return INVALID_ARGUMENT;
	c = &fake_nccl_calls[fake_nccl_ncalls++];
	memset(c, 0, sizeof *c);
	snprintf(c->name, sizeof c->name, "%s", name);
	*c = (struct fake_nccl_call){ .rank = comm->rank, .nranks = comm->nranks, .root = root, .send = send,
	                              .recv = recv, .count = count, .type = type, .op = op, .stream = stream };
	snprintf(c->name, sizeof c->name, "%s", name);
	if (depth)
		return SUCCESS;
	if (comm->nranks > 1)
		return INVALID_USAGE;  /* one thread driving several GPUs must group their calls */
	first = fake_nccl_ncalls - 1;
	return run(first, fake_nccl_ncalls);
}

API int
ncclGroupStart(void)
{
	if (!depth++)
		first = fake_nccl_ncalls;
	return SUCCESS;
}

API int
ncclGroupEnd(void)
{
	if (depth < 1)
		return INVALID_USAGE;
	if (--depth)
		return SUCCESS;
	fake_nccl_groups++;
	if (failing("ncclGroupEnd"))
		return INTERNAL_ERROR;
	return run(first, fake_nccl_ncalls);
}

API int
ncclAllReduce(const void *s, void *r, size_t count, int type, int op, ncclComm_t comm, void *stream)
{
	return record("ncclAllReduce", comm, s, r, count, type, op, -1, stream);
}

API int
ncclReduce(const void *s, void *r, size_t count, int type, int op, int root, ncclComm_t comm, void *stream)
{
	return record("ncclReduce", comm, s, r, count, type, op, root, stream);
}

API int
ncclAllGather(const void *s, void *r, size_t count, int type, ncclComm_t comm, void *stream)
{
	return record("ncclAllGather", comm, s, r, count, type, -1, -1, stream);
}

API int
ncclSend(const void *s, size_t count, int type, int peer, ncclComm_t comm, void *stream)
{
	return record("ncclSend", comm, s, NULL, count, type, -1, peer, stream);
}

API int
ncclRecv(void *r, size_t count, int type, int peer, ncclComm_t comm, void *stream)
{
	return record("ncclRecv", comm, NULL, r, count, type, -1, peer, stream);
}
