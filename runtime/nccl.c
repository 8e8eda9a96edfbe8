/* nccl.c - load libnccl.so.2 at run time (see nccl.h). */
#include "config.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "driver.h"
#include "nccl.h"
#include "gen/util.h"

#define XSTR(x) STR(x)
#define STR(x) #x

static struct kgen_nccl table;
static kgen_error load_error;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The oldest NCCL with every call kgen makes (ncclSend and ncclRecv: 2.7). */
#define OLDEST 2700

static void
load(void)
{
	const char *name = getenv("KGEN_NCCL_LIBRARY"), *e;
	void *lib;

	if (!name || !*name)
		name = "libnccl.so.2";
	dlerror();
	if (!(lib = dlopen(name, RTLD_NOW | RTLD_LOCAL))) {
		e = dlerror();
		kgen_fail(&load_error, KGEN_ECUDA,
		          "no NCCL: dlopen(%s): %s (multi-GPU calls need NCCL 2.7 or newer: install it, put its directory "
		          "on LD_LIBRARY_PATH, or name the library in KGEN_NCCL_LIBRARY)", name, e ? e : "failed");
		return;
	}
#define X(f) XSTR(f),
	static const char *const names[] = { KGEN_NCCL_FUNCS(X) };
#undef X
#define X(f) (void **)&table.f,
	void **const slots[] = { KGEN_NCCL_FUNCS(X) };
#undef X
	if (kgen_dl_resolve(lib, names, slots, sizeof names / sizeof *names, name, "NCCL too old?", &load_error) != KGEN_OK) {
		dlclose(lib);
		return;
	}
	if (table.ncclGetVersion(&table.version) != 0 || table.version < OLDEST) {
		kgen_fail(&load_error, KGEN_ECUDA, "%s is NCCL version code %d: multi-GPU calls need 2.7 (%d) or newer",
		          name, table.version, OLDEST);
		dlclose(lib);
		return;
	}
	load_error.status = KGEN_OK;
	/* The library stays loaded for the life of the process. */
}

kgen_status
kgen_nccl_load(const struct kgen_nccl **nccl, kgen_error *err)
{
	pthread_once(&once, load);
	if (load_error.status != KGEN_OK) {
		if (err)
			*err = load_error;
		return load_error.status;
	}
	*nccl = &table;
	return KGEN_OK;
}

kgen_status
kgen_nccl_fail(const struct kgen_nccl *nccl, kgen_error *err, const char *call, ncclResult_t r)
{
	const char *what = nccl && nccl->ncclGetErrorString ? nccl->ncclGetErrorString(r) : NULL;

	return kgen_fail(err, KGEN_ECUDA, "%s(): NCCL error %d%s%s (NCCL_DEBUG=WARN says more)", call, (int)r,
	                 what ? ": " : "", what ? what : "");
}
