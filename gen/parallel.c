/* parallel.c - kgen_parallel_for(): the pool behind every place kgen builds
 * or compiles several kernels at once (a size plan's entries, kgen tune's
 * points, kgen space --compile): NVRTC compiles side by side
 * (bench/results/nvidia-h100/2026-11-24-jit-nvrtc-cache: 3.1 to 5.5 times
 * as many builds a second on 16 threads). */
#include "config.h"
#include <pthread.h>
#include <unistd.h>
#include "parallel.h"

#define MAX_THREADS 256

struct pool {
	int n, next;
	void (*each)(void *arg, int i);
	void *arg;
	pthread_mutex_t lock;
};

/* Whether this thread is doing a pool's items (kgen_parallel_inside). */
static _Thread_local int inside;

int
kgen_parallel_inside(void)
{
	return inside;
}

static void *
work(void *p)
{
	struct pool *pool = p;
	int i, was = inside;

	inside = 1;
	for (;;) {
		pthread_mutex_lock(&pool->lock);
		i = pool->next < pool->n ? pool->next++ : -1;
		pthread_mutex_unlock(&pool->lock);
		if (i < 0) {
			inside = was;
			return NULL;
		}
		pool->each(pool->arg, i);
	}
}

int
kgen_parallel_for(int n, int threads, void (*each)(void *arg, int i), void *arg)
{
	struct pool pool = { n, 0, each, arg, PTHREAD_MUTEX_INITIALIZER };
	pthread_t th[MAX_THREADS];
	long cpus;
	int started = 0, i;

	if (threads < 1)
		threads = (cpus = sysconf(_SC_NPROCESSORS_ONLN)) > 1 ? (int)(cpus < MAX_THREADS ? cpus : MAX_THREADS) : 1;
	if (threads > n)
		threads = n > 1 ? n : 1;
	if (threads > MAX_THREADS)
		threads = MAX_THREADS;
	for (i = 1; i < threads; i++)
		if (pthread_create(&th[started], NULL, work, &pool) == 0)
			started++;
	work(&pool);
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&pool.lock);
	return started + 1;
}
