/* driver.c - load libcuda.so.1 at run time (see driver.h). */
#include "config.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "driver.h"

#define XSTR(x) STR(x)
#define STR(x) #x

static struct kgen_cu table;
static kgen_error load_error;
static pthread_once_t once = PTHREAD_ONCE_INIT;

kgen_status
kgen_dl_resolve(void *lib, const char *const *names, void **const *slots, size_t count, const char *who,
                const char *hint, kgen_error *err)
{
	for (size_t i = 0; i < count; i++) {
		const char *e;

		dlerror();
		*slots[i] = dlsym(lib, names[i]);
		if ((e = dlerror()) || !*slots[i])
			return kgen_fail(err, KGEN_ECUDA, "%s lacks %s: %s (%s)", who, names[i], e ? e : "NULL", hint);
	}
	return KGEN_OK;
}

static void
load(void)
{
	void *lib;
	const char *e;
	CUresult r;

	dlerror();
	if (!(lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL))) {
		e = dlerror();
		kgen_fail(&load_error, KGEN_ECUDA, "no CUDA driver: dlopen(libcuda.so.1): %s", e ? e : "failed");
		return;
	}
#define X(f) XSTR(f),
	static const char *const names[] = { KGEN_CU_FUNCS(X) };
#undef X
#define X(f) (void **)&table.f,
	void **const slots[] = { KGEN_CU_FUNCS(X) };
#undef X
	if (kgen_dl_resolve(lib, names, slots, sizeof names / sizeof *names, "the CUDA driver", "driver too old?",
	                    &load_error) != KGEN_OK) {
		dlclose(lib);
		return;
	}
	if ((r = table.cuInit(0)) != CUDA_SUCCESS) {
		kgen_cu_fail(&table, &load_error, "cuInit", r);
		return;
	}
	load_error.status = KGEN_OK;
	/* The library stays loaded for the life of the process. */
}

kgen_status
kgen_cu_load(const struct kgen_cu **cu, kgen_error *err)
{
	pthread_once(&once, load);
	if (load_error.status != KGEN_OK) {
		if (err)
			*err = load_error;
		return load_error.status;
	}
	*cu = &table;
	return KGEN_OK;
}

kgen_status
kgen_cu_fail(const struct kgen_cu *cu, kgen_error *err, const char *call, CUresult r)
{
	const char *name = NULL, *what = NULL;

	if (cu && cu->cuGetErrorName)
		cu->cuGetErrorName(r, &name);
	if (cu && cu->cuGetErrorString)
		cu->cuGetErrorString(r, &what);
	if (name)
		return kgen_fail(err, KGEN_ECUDA, "%s(): %s%s%s", call, name, what ? ": " : "", what ? what : "");
	return kgen_fail(err, KGEN_ECUDA, "%s(): CUDA error %d", call, (int)r);
}
