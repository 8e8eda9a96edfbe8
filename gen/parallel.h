/* parallel.h - work shared among threads: each takes the next item not yet
 * taken, until none is left. */
#ifndef KGEN_PARALLEL_H
#define KGEN_PARALLEL_H

/* Call each(arg, i) for every i from 0 to n - 1, on up to `threads`
 * threads, the calling thread one of them (threads below 1: as many as
 * online CPUs); each i once, in no set order.  Where no thread can be
 * started, the calling thread does every item.  Returns the threads that
 * shared the items: the caller and those started (at least 1; at most n
 * when n is positive), whether or not each found an item left. */
int kgen_parallel_for(int n, int threads, void (*each)(void *arg, int i), void *arg);

/* 1 on a thread doing the items of a kgen_parallel_for() of several
 * threads, or of one: work that would start a pool of its own (a build's
 * kernels compiled apart) does its items on that thread instead, so that
 * the outer pool's size bounds the work at once. */
int kgen_parallel_inside(void);

#endif
