/* _fast.c - kgen.reduce's, the row functions', kgen.scan's and kgen.matmul's torch fast
 * path in C (the module kgen._fast).
 *
 * A call that kgen.reduce has made ready once (kgen/_reduce.py's _Launch)
 * costs, in Python, a key built from the tensor, a dict lookup, the stream,
 * the result's allocation, a ctypes array filled and a ctypes call: about
 * half of a small reduction's host time.  Here the same steps run in C: the
 * key, the lookup in a dict the package owns, torch's own calls for the
 * stream and the result, and kgen_reduce_packed() called directly.
 *
 * Nothing here links libkgen: the package hands over the address of the
 * kgen_reduce_packed it loaded with ctypes (set_entry), so the kernels it
 * made and the function that launches them come from one library.  The
 * module is optional: without it (no Python headers where kgen was built)
 * kgen/_reduce.py takes the same path in Python.
 *
 * reduce(x, op, axis, out) returns NotImplemented for anything it does not
 * take (a call not made ready, an out= that is not a contiguous tensor of
 * the result's dtype, shape and device): the Python path then does the
 * call, or says what is wrong with it.
 *
 * rows(op, x, weight, bias, eps) is kgen.softmax, log_softmax, rms_norm and
 * layer_norm's, cross_entropy(x, labels, ignore_index) kgen.cross_entropy's
 * with reduction='none': a call whose tensors have the layouts of one that
 * kgen/_rows.py made ready (set_rows's dict holds its RowsReady) gets a new
 * result and kgen_rows(), called directly; anything else NotImplemented.
 *
 * scan(op, exclusive, dim, x) is kgen.scan's and kgen.cumsum's (a new
 * result, no out=, stream=, spec= or overrides but the types, which
 * kgen/_scan.py's _fast_op() writes into op): a call whose tensor has the
 * layout of one that kgen/_scan.py made ready (set_scan's dict holds its
 * RowsReady, a vector as one row) gets a new result and kgen_scan_rows()
 * (kgen_scan_cols() down the columns of a matrix), called directly;
 * anything else NotImplemented.
 *
 * matmul(a, b) is kgen.matmul(a, b)'s (no out=, alpha 1, beta 0): a call
 * whose tensors have the layouts of one that kgen/_matmul.py made ready,
 * and whose addresses are as aligned (both at 16 bytes or not: TMA's rule,
 * which chooses the kernel), gets a new result and kgen_matmul(), called
 * directly; anything else NotImplemented.
 */
#include <math.h>
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include "kgen.h"

#if PY_VERSION_HEX < 0x03090000
#error "kgen._fast needs Python 3.9 or later (PyObject_CallOneArg, PyObject_CallMethodNoArgs)"
#endif
#if PY_VERSION_HEX < 0x030A0000
static inline PyObject *
Py_NewRef(PyObject *o)
{
	Py_INCREF(o);
	return o;
}
#endif

/* The interface kgen/_lib.py was written for (Ready's and set_entry's
 * arguments): it loads no module whose ABI differs. */
#define KGEN_FAST_ABI 8

typedef kgen_status (*packed_fn)(const unsigned long long args[KGEN_PACKED_COUNT]);

/* The module's state: set once by set_entry(). */
static struct {
	packed_fn packed;        /* libkgen's kgen_reduce_packed */
	PyObject *ready;         /* dict: (dtype, shape, strides, device, op, axis) -> Ready */
	PyTypeObject *tensor;    /* torch.Tensor: the fast path takes exactly this type */
	PyObject *stream;        /* torch's current raw stream of a device index */
	PyObject *pair;          /* kgen.ArgResult */
	PyObject *fail;          /* fail(status, kgen_error bytes): raises the package's exception */
} fast;

static PyObject *s_dtype, *s_shape, *s_stride, *s_get_device, *s_data_ptr, *s_is_contiguous, *s_new_empty;
static PyObject *s_cross_entropy, *s_nbytes;

typedef kgen_status (*rows_fn)(kgen_kernel *k, const struct kgen_rows_args *args, kgen_stream stream, kgen_error *err);

/* The row functions' state: set once by set_rows() (after set_entry()). */
static struct {
	rows_fn rows;            /* libkgen's kgen_rows */
	PyObject *ready;         /* dict: (op, x's layout, the weight's, the bias') -> RowsReady */
} fast_rows;

typedef kgen_status (*scan_rows_fn)(kgen_kernel *k, kgen_devptr in, kgen_devptr out, unsigned long long rows,
                                    unsigned long long cols, unsigned long long in_pitch, unsigned long long out_pitch,
                                    kgen_devptr scratch, size_t scratch_bytes, kgen_stream stream, kgen_error *err);

/* kgen.scan's state: set once by set_scan() (after set_entry()). */
static struct {
	scan_rows_fn rows;       /* libkgen's kgen_scan_rows */
	scan_rows_fn cols;       /* and kgen_scan_cols, which takes the same arguments */
	PyObject *ready;         /* dict: (op, exclusive, dim, x's layout) -> RowsReady (a vector: one row) */
} fast_scan;

typedef kgen_status (*matmul_fn)(kgen_kernel *k, kgen_devptr a, kgen_devptr b, kgen_devptr c, unsigned long long m,
                                 unsigned long long n, unsigned long long kk, unsigned long long lda,
                                 unsigned long long ldb, unsigned long long ldc, double alpha, double beta,
                                 kgen_devptr scratch, size_t scratch_bytes, kgen_stream stream, kgen_error *err);

/* kgen.matmul's state: set once by set_matmul() (after set_entry()). */
static struct {
	matmul_fn matmul;        /* libkgen's kgen_matmul */
	PyObject *ready;         /* dict: (a's layout, b's layout, both 16-byte aligned) -> MatmulReady */
} fast_matmul;

/* A reduction made ready for torch tensors of one dtype, shape, layout and
 * device: the argument array's fixed slots, and how to make its results. */
typedef struct {
	PyObject_HEAD
	unsigned long long args[KGEN_PACKED_COUNT];  /* kernel, scratch, sizes; the rest set per call */
	int pair;            /* argmin, argmax: a value and an index */
	unsigned long long sink;  /* kgen.argmin/argmax (pair): the values' device buffer, the indices alone returned; 0: not */
	PyObject *device;    /* int: the tensors' device index */
	PyObject *make;      /* make(template) -> a new result (torch.empty_like) */
	PyObject *values;    /* the values' template */
	PyObject *indices;   /* the indices' template, or None */
	PyObject *dtype;     /* the values' torch dtype */
	PyObject *i64;       /* torch.int64 */
	PyObject *shape;     /* the result's shape, a tuple */
	PyObject *keep;      /* what owns the kernel and the scratch (the _Launch): kept alive */
} Ready;

static void
ready_dealloc(Ready *r)
{
	Py_XDECREF(r->device);
	Py_XDECREF(r->make);
	Py_XDECREF(r->values);
	Py_XDECREF(r->indices);
	Py_XDECREF(r->dtype);
	Py_XDECREF(r->i64);
	Py_XDECREF(r->shape);
	Py_XDECREF(r->keep);
	Py_TYPE(r)->tp_free((PyObject *)r);
}

static const char ready_doc[] =
    "Ready(kernel, scratch, scratch_bytes, sizes, pair, sink, device, make, values, indices, dtype, i64, shape, keep)\n\n"
    "A reduction made ready for torch tensors of one kind (kgen/_reduce.py's _Launch gives the fields): the\n"
    "kernel's address, its scratch, its sizes (n, or rows, cols and pitch), whether it writes a pair, where\n"
    "a pair's values go when only the indices are returned (kgen.argmax; 0: both returned), the device\n"
    "index, the function that makes a result from a template and the templates, the results' dtypes and\n"
    "shape; keep is what owns the kernel, the scratch and the sink, kept alive with this.";

static PyObject *
ready_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
	unsigned long long kernel, scratch, scratch_bytes, sink;
	PyObject *sizes, *device, *make, *values, *indices, *dtype, *i64, *shape, *keep;
	int pair;
	Py_ssize_t i, n;
	Ready *r;

	if (kw && PyDict_GET_SIZE(kw)) {
		PyErr_SetString(PyExc_TypeError, "kgen._fast.Ready takes no keyword arguments");
		return NULL;
	}
	if (!PyArg_ParseTuple(args, "KKKO!pKO!OOOOOO!O:Ready", &kernel, &scratch, &scratch_bytes, &PyTuple_Type, &sizes,
	                      &pair, &sink, &PyLong_Type, &device, &make, &values, &indices, &dtype, &i64, &PyTuple_Type,
	                      &shape, &keep))
		return NULL;
	if (sink && !pair) {
		PyErr_SetString(PyExc_ValueError, "kgen._fast.Ready: a sink for the values of a reduction that is not a pair");
		return NULL;
	}
	n = PyTuple_GET_SIZE(sizes);
	if (!kernel || n < 1 || n > 3) {
		PyErr_SetString(PyExc_ValueError, "kgen._fast.Ready: a kernel, and 1 to 3 sizes");
		return NULL;
	}
	if (!(r = (Ready *)type->tp_alloc(type, 0)))
		return NULL;
	memset(r->args, 0, sizeof r->args);
	r->args[KGEN_PACKED_KERNEL] = kernel;
	r->args[KGEN_PACKED_SCRATCH] = scratch;
	r->args[KGEN_PACKED_SCRATCH_BYTES] = scratch_bytes;
	for (i = 0; i < n; i++) {
		r->args[KGEN_PACKED_N + i] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(sizes, i));
		if (PyErr_Occurred()) {
			Py_DECREF(r);
			return NULL;
		}
	}
	r->pair = pair;
	r->sink = sink;
	r->device = Py_NewRef(device);
	r->make = Py_NewRef(make);
	r->values = Py_NewRef(values);
	r->indices = Py_NewRef(indices);
	r->dtype = Py_NewRef(dtype);
	r->i64 = Py_NewRef(i64);
	r->shape = Py_NewRef(shape);
	r->keep = Py_NewRef(keep);
	return (PyObject *)r;
}

static PyTypeObject ReadyType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "kgen._fast.Ready",
	.tp_basicsize = sizeof(Ready),
	.tp_dealloc = (destructor)ready_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = ready_doc,
	.tp_new = ready_new,
};

/* torch's current raw stream on device (fast.stream(device)) into
 * *stream; -1 with an exception set when it fails. */
static int
current_stream(PyObject *device, unsigned long long *stream)
{
	PyObject *fn = Py_NewRef(fast.stream), *s;  /* held: a call may run code that calls set_entry */

	s = PyObject_CallOneArg(fn, device);
	Py_DECREF(fn);
	if (!s)
		return -1;
	*stream = PyLong_AsUnsignedLongLong(s);
	Py_DECREF(s);
	return PyErr_Occurred() ? -1 : 0;
}

/* v, a new reference (NULL with an exception set: a call that failed), as
 * an unsigned long long, v dropped; (unsigned long long)-1 with an
 * exception set where it is none. */
static unsigned long long
ull_taken(PyObject *v)
{
	unsigned long long a;

	if (!v)
		return (unsigned long long)-1;
	a = PyLong_AsUnsignedLongLong(v);
	Py_DECREF(v);
	return a;
}

/* An object's address from its data_ptr(), or (unsigned long long)-1 with
 * an exception set. */
static unsigned long long
address(PyObject *t)
{
	return ull_taken(PyObject_CallMethodNoArgs(t, s_data_ptr));
}

/* Is out a contiguous torch tensor of dtype and r's shape on r's device?
 * 1 yes, 0 no, -1 an exception. */
static int
takes_out(const Ready *r, PyObject *out, PyObject *dtype)
{
	PyObject *v;
	int ok;

	if (Py_TYPE(out) != fast.tensor)
		return 0;
	if (!(v = PyObject_GetAttr(out, s_dtype)))
		return -1;
	ok = v == dtype;
	Py_DECREF(v);
	if (!ok)
		return 0;
	if (!(v = PyObject_GetAttr(out, s_shape)))
		return -1;
	ok = PyObject_RichCompareBool(v, r->shape, Py_EQ);
	Py_DECREF(v);
	if (ok != 1)
		return ok;
	if (!(v = PyObject_CallMethodNoArgs(out, s_get_device)))
		return -1;
	ok = PyObject_RichCompareBool(v, r->device, Py_EQ);
	Py_DECREF(v);
	if (ok != 1)
		return ok;
	if (!(v = PyObject_CallMethodNoArgs(out, s_is_contiguous)))
		return -1;
	ok = PyObject_IsTrue(v);
	Py_DECREF(v);
	return ok;
}

/* Raise the package's error for a failed call of libkgen's `who` (status
 * st, err filled): fail() raises it; if it did not, a RuntimeError. */
static void
raise_failed(kgen_status st, const kgen_error *err, const char *who)
{
	PyObject *fn = Py_NewRef(fast.fail), *res;  /* held: a call may run code that calls set_entry */

	if ((res = PyObject_CallFunction(fn, "iy#", (int)st, (const char *)err, (Py_ssize_t)sizeof *err)))
		Py_DECREF(res);
	Py_DECREF(fn);
	if (!PyErr_Occurred())
		PyErr_Format(PyExc_RuntimeError, "kgen: %s failed (status %d)", who, (int)st);
}

/* Launch r on tensor x into out (None: new results); NotImplemented for an
 * out= the Python path should look at. */
static PyObject *
ready_call(Ready *r, PyObject *x, PyObject *out)
{
	unsigned long long a[KGEN_PACKED_COUNT];
	PyObject *v = NULL, *i = NULL, *res, *fn;
	kgen_error err;
	kgen_status st;
	int ok;

	memcpy(a, r->args, sizeof a);
	if (r->sink && out == Py_None) {  /* the indices alone: one result */
		if (!(i = PyObject_CallOneArg(r->make, r->indices)))
			return NULL;
	} else if (r->sink) {
		if ((ok = takes_out(r, out, r->i64)) != 1)
			return ok < 0 ? NULL : Py_NewRef(Py_NotImplemented);
		i = Py_NewRef(out);
	} else if (out == Py_None) {
		if (!(v = PyObject_CallOneArg(r->make, r->values)))
			return NULL;
		if (r->pair && !(i = PyObject_CallOneArg(r->make, r->indices)))
			goto fail;
	} else if (!r->pair) {
		if ((ok = takes_out(r, out, r->dtype)) != 1)
			return ok < 0 ? NULL : Py_NewRef(Py_NotImplemented);
		v = Py_NewRef(out);
	} else {
		if (!PyTuple_CheckExact(out) || PyTuple_GET_SIZE(out) != 2)
			return Py_NewRef(Py_NotImplemented);
		if ((ok = takes_out(r, PyTuple_GET_ITEM(out, 0), r->dtype)) == 1)
			ok = takes_out(r, PyTuple_GET_ITEM(out, 1), r->i64);
		if (ok != 1)
			return ok < 0 ? NULL : Py_NewRef(Py_NotImplemented);
		v = Py_NewRef(PyTuple_GET_ITEM(out, 0));
		i = Py_NewRef(PyTuple_GET_ITEM(out, 1));
	}
	if (current_stream(r->device, &a[KGEN_PACKED_STREAM]) < 0)
		goto fail;
	if ((a[KGEN_PACKED_IN] = address(x)) == (unsigned long long)-1 && PyErr_Occurred())
		goto fail;
	if (r->sink)
		a[KGEN_PACKED_OUT] = r->sink;
	else if ((a[KGEN_PACKED_OUT] = address(v)) == (unsigned long long)-1 && PyErr_Occurred())
		goto fail;
	if (i && (a[KGEN_PACKED_INDEX] = address(i)) == (unsigned long long)-1 && PyErr_Occurred())
		goto fail;
	a[KGEN_PACKED_ERROR] = (unsigned long long)(uintptr_t)&err;
	Py_BEGIN_ALLOW_THREADS
	st = fast.packed(a);
	Py_END_ALLOW_THREADS
	if (st != KGEN_OK) {
		raise_failed(st, &err, "kgen_reduce_packed");
		goto fail;
	}
	if (out != Py_None) {
		Py_XDECREF(v);
		Py_XDECREF(i);
		return Py_NewRef(out);
	}
	if (r->sink)
		return i;
	if (!r->pair)
		return v;
	fn = Py_NewRef(fast.pair);
	res = PyObject_CallFunctionObjArgs(fn, v, i, NULL);
	Py_DECREF(fn);
	Py_DECREF(v);
	Py_DECREF(i);
	return res;
fail:
	Py_XDECREF(v);
	Py_XDECREF(i);
	return NULL;
}

/* reduce(x, op, axis, out): the ready call for x's (dtype, shape, strides,
 * device, op, axis), or NotImplemented. */
static PyObject *
fast_reduce(PyObject *self, PyObject *const *argv, Py_ssize_t argc)
{
	PyObject *x, *key, *r, *dtype, *shape, *stride, *device;

	(void)self;
	if (argc != 4) {
		PyErr_Format(PyExc_TypeError, "kgen._fast.reduce takes 4 arguments (x, op, axis, out), not %zd", argc);
		return NULL;
	}
	x = argv[0];
	if (!fast.packed || Py_TYPE(x) != fast.tensor)
		return Py_NewRef(Py_NotImplemented);
	/* The ready dict's keys compare by ==, and True == 1 == 1.0: only an
	 * exact int (or None) may find the entry that the Python path made for
	 * that axis; anything else is the Python path's to take or refuse. */
	if (argv[2] != Py_None && !PyLong_CheckExact(argv[2]))
		return Py_NewRef(Py_NotImplemented);
	if (argv[1] != Py_None && !PyUnicode_CheckExact(argv[1]))
		return Py_NewRef(Py_NotImplemented);
	dtype = PyObject_GetAttr(x, s_dtype);
	shape = dtype ? PyObject_GetAttr(x, s_shape) : NULL;
	stride = shape ? PyObject_CallMethodNoArgs(x, s_stride) : NULL;
	device = stride ? PyObject_CallMethodNoArgs(x, s_get_device) : NULL;
	key = device ? PyTuple_Pack(6, dtype, shape, stride, device, argv[1], argv[2]) : NULL;
	Py_XDECREF(dtype);
	Py_XDECREF(shape);
	Py_XDECREF(stride);
	Py_XDECREF(device);
	if (!key)
		return NULL;
	r = PyDict_GetItemWithError(fast.ready, key);  /* borrowed */
	Py_DECREF(key);
	if (!r) {
		if (!PyErr_Occurred())
			return Py_NewRef(Py_NotImplemented);
		if (!PyErr_ExceptionMatches(PyExc_TypeError))  /* an unhashable axis: the Python path says what is wrong */
			return NULL;
		PyErr_Clear();
		return Py_NewRef(Py_NotImplemented);
	}
	if (Py_TYPE(r) != &ReadyType) {
		PyErr_SetString(PyExc_TypeError, "kgen._fast: the ready dict holds something that is not a Ready");
		return NULL;
	}
	Py_INCREF(r);  /* a call may run Python code that empties the dict */
	x = ready_call((Ready *)r, x, argv[3]);
	Py_DECREF(r);
	return x;
}

/* A row function or a scan made ready for torch tensors of one layout
 * each: the kernel, the sizes, and how to make its result. */
typedef struct {
	PyObject_HEAD
	kgen_kernel *kernel;
	unsigned long long rows, cols, x_pitch;
	PyObject *device;    /* int: the tensors' device index */
	PyObject *like;      /* a tensor of the result's dtype on its device: like.new_empty(shape) is a result */
	PyObject *shape;     /* the result's shape, a tuple */
	int losses;          /* cross_entropy: the result is the losses (else y) */
	PyObject *keep;      /* what owns the kernel: kept alive */
	int down;            /* a scan down the columns (kgen_scan_cols: rows of cols, x's rows x_pitch apart) */
	PyObject *make;      /* make(x) -> a result (torch.empty_like: x's dtype and shape), or None: like.new_empty */
} RowsReady;

static void
rows_ready_dealloc(RowsReady *r)
{
	Py_XDECREF(r->device);
	Py_XDECREF(r->like);
	Py_XDECREF(r->shape);
	Py_XDECREF(r->keep);
	Py_XDECREF(r->make);
	Py_TYPE(r)->tp_free((PyObject *)r);
}

static const char rows_ready_doc[] =
    "RowsReady(kernel, rows, cols, x_pitch, device, like, shape, losses, keep[, down[, make]])\n\n"
    "A row function or a scan made ready for torch tensors of one layout (kgen/_rows.py and kgen/_scan.py\n"
    "give the fields): the kernel's address, the rows (a scan's vector: one), their length and pitch, the\n"
    "device index, a tensor whose new_empty(shape) makes a result, the result's shape, whether it is\n"
    "cross_entropy's losses; keep owns the kernel; down: a scan down the columns (kgen_scan_cols); make:\n"
    "None, or a function of x that makes a result (torch.empty_like, where the result has x's dtype and\n"
    "shape and a contiguous layout: a call's cheapest allocation).";

static PyObject *
rows_ready_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
	unsigned long long kernel, rows, cols, x_pitch;
	PyObject *device, *like, *shape, *keep, *make = Py_None;
	RowsReady *r;
	int losses, down = 0;

	if (kw && PyDict_GET_SIZE(kw)) {
		PyErr_SetString(PyExc_TypeError, "kgen._fast.RowsReady takes no keyword arguments");
		return NULL;
	}
	if (!PyArg_ParseTuple(args, "KKKKO!OO!pO|pO:RowsReady", &kernel, &rows, &cols, &x_pitch, &PyLong_Type, &device,
	                      &like, &PyTuple_Type, &shape, &losses, &keep, &down, &make))
		return NULL;
	if (make != Py_None && !PyCallable_Check(make)) {
		PyErr_SetString(PyExc_TypeError, "kgen._fast.RowsReady: make is None or a function of x that makes a result");
		return NULL;
	}
	if (!kernel || !rows || !cols || x_pitch < cols) {
		PyErr_SetString(PyExc_ValueError, "kgen._fast.RowsReady: a kernel, rows and cols above 0, x_pitch >= cols");
		return NULL;
	}
	if (!(r = (RowsReady *)type->tp_alloc(type, 0)))
		return NULL;
	r->kernel = (kgen_kernel *)(uintptr_t)kernel;
	r->rows = rows;
	r->cols = cols;
	r->x_pitch = x_pitch;
	r->device = Py_NewRef(device);
	r->like = Py_NewRef(like);
	r->shape = Py_NewRef(shape);
	r->losses = losses;
	r->keep = Py_NewRef(keep);
	r->down = down;
	r->make = Py_NewRef(make);
	return (PyObject *)r;
}

static PyTypeObject RowsReadyType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "kgen._fast.RowsReady",
	.tp_basicsize = sizeof(RowsReady),
	.tp_dealloc = (destructor)rows_ready_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = rows_ready_doc,
	.tp_new = rows_ready_new,
};

/* A tensor's part of a row call's key: (dtype, shape, strides, device);
 * None for None; NULL with an exception set. */
static PyObject *
layout(PyObject *t)
{
	PyObject *dtype, *shape, *stride, *device, *key;

	if (t == Py_None)
		return Py_NewRef(Py_None);
	dtype = PyObject_GetAttr(t, s_dtype);
	shape = dtype ? PyObject_GetAttr(t, s_shape) : NULL;
	stride = shape ? PyObject_CallMethodNoArgs(t, s_stride) : NULL;
	device = stride ? PyObject_CallMethodNoArgs(t, s_get_device) : NULL;
	key = device ? PyTuple_Pack(4, dtype, shape, stride, device) : NULL;
	Py_XDECREF(dtype);
	Py_XDECREF(shape);
	Py_XDECREF(stride);
	Py_XDECREF(device);
	return key;
}

/* Launch r on x (the weight w and bias b, or None, with eps; or
 * cross_entropy's labels w and ignore_index): a new result. */
static PyObject *
rows_call(RowsReady *r, PyObject *x, PyObject *w, PyObject *b, double eps, long long ignore_index)
{
	struct kgen_rows_args a;
	PyObject *y;
	unsigned long long stream;
	kgen_error err;
	kgen_status st;

	y = r->make != Py_None ? PyObject_CallOneArg(r->make, x) : PyObject_CallMethodOneArg(r->like, s_new_empty, r->shape);
	if (!y)
		return NULL;
	if (current_stream(r->device, &stream) < 0)
		goto fail;
	memset(&a, 0, sizeof a);
	a.rows = r->rows;
	a.cols = r->cols;
	a.x_pitch = r->x_pitch;
	a.eps = eps;
	a.ignore_index = ignore_index;
	if ((a.x = address(x)) == (unsigned long long)-1 && PyErr_Occurred())
		goto fail;
	if (r->losses) {
		if ((a.loss = address(y)) == (unsigned long long)-1 && PyErr_Occurred())
			goto fail;
		if ((a.labels = address(w)) == (unsigned long long)-1 && PyErr_Occurred())
			goto fail;
	} else {
		a.y_pitch = r->cols;
		if ((a.y = address(y)) == (unsigned long long)-1 && PyErr_Occurred())
			goto fail;
		if (w != Py_None && (a.weight = address(w)) == (unsigned long long)-1 && PyErr_Occurred())
			goto fail;
	}
	if (b != Py_None && (a.bias = address(b)) == (unsigned long long)-1 && PyErr_Occurred())
		goto fail;
	Py_BEGIN_ALLOW_THREADS
	st = fast_rows.rows(r->kernel, &a, (kgen_stream)(uintptr_t)stream, &err);
	Py_END_ALLOW_THREADS
	if (st != KGEN_OK) {
		raise_failed(st, &err, "kgen_rows");
		goto fail;
	}
	return y;
fail:
	Py_DECREF(y);
	return NULL;
}

/* The RowsReady of op on tensors x, w, b (w, b: None or tensors) as a new
 * reference, or a new reference to NotImplemented where none was made
 * ready, or NULL with an exception set. */
static PyObject *
find_rows(PyObject *op, PyObject *x, PyObject *w, PyObject *b)
{
	PyObject *key, *r, *lx, *lw = NULL, *lb = NULL;

	lx = layout(x);
	lw = lx ? layout(w) : NULL;
	lb = lw ? layout(b) : NULL;
	key = lb ? PyTuple_Pack(4, op, lx, lw, lb) : NULL;
	Py_XDECREF(lx);
	Py_XDECREF(lw);
	Py_XDECREF(lb);
	if (!key)
		return NULL;
	r = PyDict_GetItemWithError(fast_rows.ready, key);  /* borrowed */
	Py_DECREF(key);
	if (!r)
		return PyErr_Occurred() ? NULL : Py_NewRef(Py_NotImplemented);
	if (Py_TYPE(r) != &RowsReadyType) {
		PyErr_SetString(PyExc_TypeError, "kgen._fast: the rows dict holds something that is not a RowsReady");
		return NULL;
	}
	return Py_NewRef(r);  /* held: a call may run Python code that empties the dict */
}

/* rows(op, x, weight, bias, eps): the ready call for the tensors' layouts,
 * or NotImplemented. */
static PyObject *
fast_rows_call(PyObject *self, PyObject *const *argv, Py_ssize_t argc)
{
	PyObject *x, *w, *b, *r;
	double eps;

	(void)self;
	if (argc != 5) {
		PyErr_Format(PyExc_TypeError, "kgen._fast.rows takes 5 arguments (op, x, weight, bias, eps), not %zd", argc);
		return NULL;
	}
	x = argv[1], w = argv[2], b = argv[3];
	if (!fast_rows.rows || Py_TYPE(x) != fast.tensor || (w != Py_None && Py_TYPE(w) != fast.tensor) ||
	    (b != Py_None && Py_TYPE(b) != fast.tensor) || !PyUnicode_CheckExact(argv[0]))
		return Py_NewRef(Py_NotImplemented);
	if (!PyFloat_CheckExact(argv[4]))  /* an int, a bool, a tensor: the Python path checks it */
		return Py_NewRef(Py_NotImplemented);
	eps = PyFloat_AS_DOUBLE(argv[4]);
	if (!isfinite(eps) || eps < 0)
		return Py_NewRef(Py_NotImplemented);
	if (!(r = find_rows(argv[0], x, w, b)))
		return NULL;
	if (r != Py_NotImplemented && ((RowsReady *)r)->losses) {  /* made ready for cross_entropy() */
		Py_DECREF(r);
		r = Py_NewRef(Py_NotImplemented);
	}
	if (r == Py_NotImplemented)
		return r;
	x = rows_call((RowsReady *)r, x, w, b, eps, 0);
	Py_DECREF(r);
	return x;
}

/* cross_entropy(x, labels, ignore_index): the ready call (reduction 'none')
 * for the tensors' layouts, or NotImplemented. */
static PyObject *
fast_cross_entropy(PyObject *self, PyObject *const *argv, Py_ssize_t argc)
{
	PyObject *x, *labels, *r;
	long long ignore_index;
	int overflow;

	(void)self;
	if (argc != 3) {
		PyErr_Format(PyExc_TypeError, "kgen._fast.cross_entropy takes 3 arguments (x, labels, ignore_index), not %zd",
		             argc);
		return NULL;
	}
	x = argv[0], labels = argv[1];
	if (!fast_rows.rows || Py_TYPE(x) != fast.tensor || Py_TYPE(labels) != fast.tensor || !PyLong_CheckExact(argv[2]))
		return Py_NewRef(Py_NotImplemented);
	ignore_index = PyLong_AsLongLongAndOverflow(argv[2], &overflow);
	if (overflow)  /* out of range: the Python path says so */
		return Py_NewRef(Py_NotImplemented);
	if (!(r = find_rows(s_cross_entropy, x, labels, Py_None)))
		return NULL;
	if (r != Py_NotImplemented && !((RowsReady *)r)->losses) {
		Py_DECREF(r);
		r = Py_NewRef(Py_NotImplemented);
	}
	if (r == Py_NotImplemented)
		return r;
	x = rows_call((RowsReady *)r, x, labels, Py_None, 0.0, ignore_index);
	Py_DECREF(r);
	return x;
}

/* Launch r (a RowsReady of a scan: its rows, length and pitch, a vector
 * one row; or down its columns) on x: a new result. */
static PyObject *
scan_call(RowsReady *r, PyObject *x)
{
	unsigned long long stream, in, out;
	PyObject *y;
	kgen_error err;
	kgen_status st;

	if (!(y = PyObject_CallMethodOneArg(r->like, s_new_empty, r->shape)))
		return NULL;
	if (current_stream(r->device, &stream) < 0)
		goto fail;
	if ((in = address(x)) == (unsigned long long)-1 && PyErr_Occurred())
		goto fail;
	if ((out = address(y)) == (unsigned long long)-1 && PyErr_Occurred())
		goto fail;
	Py_BEGIN_ALLOW_THREADS
	st = (r->down ? fast_scan.cols : fast_scan.rows)(r->kernel, in, out, r->rows, r->cols, r->x_pitch, r->cols, 0, 0,
	                                                (kgen_stream)(uintptr_t)stream, &err);
	Py_END_ALLOW_THREADS
	if (st != KGEN_OK) {
		raise_failed(st, &err, r->down ? "kgen_scan_cols" : "kgen_scan_rows");
		goto fail;
	}
	return y;
fail:
	Py_DECREF(y);
	return NULL;
}

/* scan(op, exclusive, dim, x): the ready call for the tensor's layout, or
 * NotImplemented.  Only an exact str op, a bool exclusive and an exact int
 * or None dim find an entry (True == 1 == 1.0 in a dict's keys). */
static PyObject *
fast_scan_call(PyObject *self, PyObject *const *argv, Py_ssize_t argc)
{
	PyObject *lx, *key, *r, *y;

	(void)self;
	if (argc != 4) {
		PyErr_Format(PyExc_TypeError, "kgen._fast.scan takes 4 arguments (op, exclusive, dim, x), not %zd", argc);
		return NULL;
	}
	if (!fast_scan.rows || !PyUnicode_CheckExact(argv[0]) || !PyBool_Check(argv[1]) ||
	    (argv[2] != Py_None && !PyLong_CheckExact(argv[2])) || Py_TYPE(argv[3]) != fast.tensor)
		return Py_NewRef(Py_NotImplemented);
	if (!(lx = layout(argv[3])))
		return NULL;
	key = PyTuple_Pack(4, argv[0], argv[1], argv[2], lx);
	Py_DECREF(lx);
	if (!key)
		return NULL;
	r = PyDict_GetItemWithError(fast_scan.ready, key);  /* borrowed */
	Py_DECREF(key);
	if (!r)
		return PyErr_Occurred() ? NULL : Py_NewRef(Py_NotImplemented);
	if (Py_TYPE(r) != &RowsReadyType || ((RowsReady *)r)->losses) {
		PyErr_SetString(PyExc_TypeError, "kgen._fast: the scan dict holds something that is not a scan's RowsReady");
		return NULL;
	}
	if (((RowsReady *)r)->down && !fast_scan.cols) {
		PyErr_SetString(PyExc_TypeError, "kgen._fast: a scan down the columns made ready, but set_scan was given no "
		                "kgen_scan_cols");
		return NULL;
	}
	Py_INCREF(r);  /* held: a call may run Python code that empties the dict */
	y = scan_call((RowsReady *)r, argv[3]);
	Py_DECREF(r);
	return y;
}

/* kgen.matmul made ready for two torch tensors of one layout each (and
 * alignment): the kernel, the sizes, and how to make the result. */
typedef struct {
	PyObject_HEAD
	kgen_kernel *kernel;
	unsigned long long m, n, k, lda, ldb;
	PyObject *device;    /* int: the tensors' device index */
	PyObject *make;      /* make(template) -> a new result (torch.empty_like, or new_empty of the shape) */
	PyObject *result;    /* the template */
	PyObject *keep;      /* what owns the kernel: kept alive */
	unsigned long long scratch_bytes;  /* the kernel's scratch a call (split_k), 0 for none */
	PyObject *scratch;   /* scratch() -> a new tensor of at least scratch_bytes, on the current stream; or None */
} MatmulReady;

static void
matmul_ready_dealloc(MatmulReady *r)
{
	Py_XDECREF(r->device);
	Py_XDECREF(r->make);
	Py_XDECREF(r->result);
	Py_XDECREF(r->keep);
	Py_XDECREF(r->scratch);
	Py_TYPE(r)->tp_free((PyObject *)r);
}

static const char matmul_ready_doc[] =
    "MatmulReady(kernel, m, n, k, lda, ldb, device, make, result, keep[, scratch_bytes, scratch])\n\n"
    "kgen.matmul made ready for torch tensors of one layout each (kgen/_matmul.py gives the fields): the\n"
    "kernel's address, m, n and k, a's and b's leading dimensions in the layouts the kernel reads, the\n"
    "device index, the function that makes the row-major m x n result from the template; keep owns the\n"
    "kernel.  A call is C = A B (alpha 1, beta 0) into a new result.  A kernel that needs scratch (split_k)\n"
    "gives its bytes and scratch(), which makes a new tensor of them on the current stream (torch's\n"
    "caching allocator): a call's own, dropped after its launch, so that its memory goes to the next\n"
    "allocation on that stream only once the kernel is done with it.";

static PyObject *
matmul_ready_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
	unsigned long long kernel, m, n, k, lda, ldb, scratch_bytes = 0;
	PyObject *device, *make, *result, *keep, *scratch = Py_None;
	MatmulReady *r;

	if (kw && PyDict_GET_SIZE(kw)) {
		PyErr_SetString(PyExc_TypeError, "kgen._fast.MatmulReady takes no keyword arguments");
		return NULL;
	}
	if (!PyArg_ParseTuple(args, "KKKKKKO!OOO|KO:MatmulReady", &kernel, &m, &n, &k, &lda, &ldb, &PyLong_Type, &device,
	                      &make, &result, &keep, &scratch_bytes, &scratch))
		return NULL;
	if (!kernel || !m || !n || !k || !lda || !ldb) {
		PyErr_SetString(PyExc_ValueError, "kgen._fast.MatmulReady: a kernel, and m, n, k, lda and ldb above 0");
		return NULL;
	}
	if (scratch_bytes && !PyCallable_Check(scratch)) {
		PyErr_SetString(PyExc_TypeError, "kgen._fast.MatmulReady: scratch_bytes above 0 needs scratch(), a callable "
		                "that makes a tensor of them");
		return NULL;
	}
	if (!(r = (MatmulReady *)type->tp_alloc(type, 0)))
		return NULL;
	r->kernel = (kgen_kernel *)(uintptr_t)kernel;
	r->m = m;
	r->n = n;
	r->k = k;
	r->lda = lda;
	r->ldb = ldb;
	r->device = Py_NewRef(device);
	r->make = Py_NewRef(make);
	r->result = Py_NewRef(result);
	r->keep = Py_NewRef(keep);
	r->scratch_bytes = scratch_bytes;
	r->scratch = Py_NewRef(scratch);
	return (PyObject *)r;
}

static PyObject *
matmul_ready_scratch_bytes(PyObject *self, void *unused)
{
	(void)unused;
	return PyLong_FromUnsignedLongLong(((MatmulReady *)self)->scratch_bytes);
}

static PyGetSetDef matmul_ready_getset[] = {
	{ "scratch_bytes", matmul_ready_scratch_bytes, NULL, "the kernel's scratch a call, in bytes (0: none)", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyTypeObject MatmulReadyType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "kgen._fast.MatmulReady",
	.tp_basicsize = sizeof(MatmulReady),
	.tp_dealloc = (destructor)matmul_ready_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = matmul_ready_doc,
	.tp_getset = matmul_ready_getset,
	.tp_new = matmul_ready_new,
};

/* The scratch() tensor t's address, once its nbytes holds bytes; else
 * (unsigned long long)-1 with an exception set. */
static unsigned long long
scratch_address(PyObject *t, unsigned long long bytes)
{
	unsigned long long have = ull_taken(PyObject_GetAttr(t, s_nbytes));

	if (have == (unsigned long long)-1 && PyErr_Occurred())
		return (unsigned long long)-1;
	if (have < bytes) {
		PyErr_Format(PyExc_ValueError, "kgen._fast.matmul: scratch() made %llu bytes, the kernel needs %llu", have,
		             bytes);
		return (unsigned long long)-1;
	}
	return address(t);
}

/* matmul(a, b): kgen.matmul(a, b) of torch tensors whose layouts (and
 * alignment) were made ready before, into a new result, or NotImplemented. */
static PyObject *
fast_matmul_call(PyObject *self, PyObject *const *argv, Py_ssize_t argc)
{
	PyObject *la, *lb = NULL, *key = NULL, *r, *c = NULL, *scratch = NULL;
	unsigned long long pa, pb, pc, ps = 0, stream;
	MatmulReady *mr;
	kgen_error err;
	kgen_status st;

	(void)self;
	if (argc != 2) {
		PyErr_Format(PyExc_TypeError, "kgen._fast.matmul takes 2 arguments (a, b), not %zd", argc);
		return NULL;
	}
	if (!fast_matmul.matmul || Py_TYPE(argv[0]) != fast.tensor || Py_TYPE(argv[1]) != fast.tensor)
		return Py_NewRef(Py_NotImplemented);
	if ((pa = address(argv[0])) == (unsigned long long)-1 && PyErr_Occurred())
		return NULL;
	if ((pb = address(argv[1])) == (unsigned long long)-1 && PyErr_Occurred())
		return NULL;
	la = layout(argv[0]);
	lb = la ? layout(argv[1]) : NULL;
	key = lb ? PyTuple_Pack(3, la, lb, (pa | pb) % 16 == 0 ? Py_True : Py_False) : NULL;
	Py_XDECREF(la);
	Py_XDECREF(lb);
	if (!key)
		return NULL;
	r = PyDict_GetItemWithError(fast_matmul.ready, key);  /* borrowed */
	Py_DECREF(key);
	if (!r)
		return PyErr_Occurred() ? NULL : Py_NewRef(Py_NotImplemented);
	if (Py_TYPE(r) != &MatmulReadyType) {
		PyErr_SetString(PyExc_TypeError, "kgen._fast: the matmul dict holds something that is not a MatmulReady");
		return NULL;
	}
	mr = (MatmulReady *)Py_NewRef(r);  /* held: a call may run Python code that empties the dict */
	if (!(c = PyObject_CallOneArg(mr->make, mr->result)))
		goto fail;
	if (current_stream(mr->device, &stream) < 0)
		goto fail;
	if ((pc = address(c)) == (unsigned long long)-1 && PyErr_Occurred())
		goto fail;
	if (mr->scratch_bytes &&
	    (!(scratch = PyObject_CallNoArgs(mr->scratch)) ||
	     ((ps = scratch_address(scratch, mr->scratch_bytes)) == (unsigned long long)-1 && PyErr_Occurred())))
		goto fail;
	Py_BEGIN_ALLOW_THREADS
	st = fast_matmul.matmul(mr->kernel, pa, pb, pc, mr->m, mr->n, mr->k, mr->lda, mr->ldb, mr->n, 1.0, 0.0, ps,
	                        (size_t)mr->scratch_bytes, (kgen_stream)(uintptr_t)stream, &err);
	Py_END_ALLOW_THREADS
	Py_XDECREF(scratch);  /* back to the allocator for work queued after this launch on the stream */
	scratch = NULL;
	if (st != KGEN_OK) {
		raise_failed(st, &err, "kgen_matmul");
		goto fail;
	}
	Py_DECREF(mr);
	return c;
fail:
	Py_XDECREF(scratch);
	Py_XDECREF(c);
	Py_DECREF(mr);
	return NULL;
}

/* set_matmul's, set_rows' and set_scan's arguments, (libkgen's entry, the
 * dict of ready calls[, a second entry: set_scan's, where `also` is not
 * NULL]), into *entry and *ready (replacing the dict held) and *also; -1
 * with an exception set where the (first) address is 0 or set_entry has
 * not run. */
static int
take_entry(PyObject *args, const char *who, const char *fn, unsigned long long *entry, PyObject **ready,
           unsigned long long *also)
{
	PyObject *dict;
	char format[32];

	snprintf(format, sizeof format, "KO!%s:%s", also ? "K" : "", who);  /* the function's name in PyArg's errors */
	if (!(also ? PyArg_ParseTuple(args, format, entry, &PyDict_Type, &dict, also)
	           : PyArg_ParseTuple(args, format, entry, &PyDict_Type, &dict)))
		return -1;
	if (!*entry || !fast.packed) {
		PyErr_Format(PyExc_ValueError, "kgen._fast.%s: %s's address is 0, or set_entry was not called", who, fn);
		return -1;
	}
	Py_XSETREF(*ready, Py_NewRef(dict));
	return 0;
}

/* set_matmul(kgen_matmul address, matmul dict) */
static PyObject *
fast_set_matmul(PyObject *self, PyObject *args)
{
	unsigned long long entry;

	(void)self;
	if (take_entry(args, "set_matmul", "kgen_matmul", &entry, &fast_matmul.ready, NULL) < 0)
		return NULL;
	fast_matmul.matmul = (matmul_fn)(uintptr_t)entry;
	Py_RETURN_NONE;
}

/* set_rows(kgen_rows address, rows dict) */
static PyObject *
fast_set_rows(PyObject *self, PyObject *args)
{
	unsigned long long entry;

	(void)self;
	if (take_entry(args, "set_rows", "kgen_rows", &entry, &fast_rows.ready, NULL) < 0)
		return NULL;
	fast_rows.rows = (rows_fn)(uintptr_t)entry;
	Py_RETURN_NONE;
}

/* set_scan(kgen_scan_rows address, scan dict, kgen_scan_cols address) */
static PyObject *
fast_set_scan(PyObject *self, PyObject *args)
{
	unsigned long long entry, cols;  /* cols 0: a libkgen without kgen_scan_cols, no scan down columns */

	(void)self;
	if (PyTuple_GET_SIZE(args) != 3) {
		PyErr_Format(PyExc_TypeError, "kgen._fast.set_scan takes 3 arguments (kgen_scan_rows, dict, kgen_scan_cols), "
		             "not %zd", PyTuple_GET_SIZE(args));
		return NULL;
	}
	if (take_entry(args, "set_scan", "kgen_scan_rows", &entry, &fast_scan.ready, &cols) < 0)
		return NULL;
	fast_scan.rows = (scan_rows_fn)(uintptr_t)entry;
	fast_scan.cols = (scan_rows_fn)(uintptr_t)cols;
	Py_RETURN_NONE;
}

/* set_entry(kgen_reduce_packed address, ready dict, torch.Tensor, stream function, ArgResult, fail) */
static PyObject *
fast_set_entry(PyObject *self, PyObject *args)
{
	unsigned long long entry;
	PyObject *ready, *tensor, *stream, *pair, *fail;

	(void)self;
	if (!PyArg_ParseTuple(args, "KO!O!OOO:set_entry", &entry, &PyDict_Type, &ready, &PyType_Type, &tensor, &stream,
	                      &pair, &fail))
		return NULL;
	if (!entry) {
		PyErr_SetString(PyExc_ValueError, "kgen._fast.set_entry: the address of kgen_reduce_packed is 0");
		return NULL;
	}
	Py_XSETREF(fast.ready, Py_NewRef(ready));
	Py_XSETREF(fast.tensor, (PyTypeObject *)Py_NewRef(tensor));
	Py_XSETREF(fast.stream, Py_NewRef(stream));
	Py_XSETREF(fast.pair, Py_NewRef(pair));
	Py_XSETREF(fast.fail, Py_NewRef(fail));
	fast.packed = (packed_fn)(uintptr_t)entry;
	Py_RETURN_NONE;
}

static PyMethodDef fast_methods[] = {
	{ "reduce", (PyCFunction)(void (*)(void))fast_reduce, METH_FASTCALL,
	  "reduce(x, op, axis, out): kgen.reduce of a torch tensor made ready before (set_entry's dict holds its\n"
	  "Ready), into out or new results; NotImplemented for any call this path does not take." },
	{ "set_entry", fast_set_entry, METH_VARARGS,
	  "set_entry(kgen_reduce_packed, ready, Tensor, stream, ArgResult, fail): libkgen's entry (an address),\n"
	  "the dict of Ready calls, torch.Tensor, torch's raw-stream function, the pair type and the function\n"
	  "that raises a failed call's error (status, kgen_error as bytes)." },
	{ "rows", (PyCFunction)(void (*)(void))fast_rows_call, METH_FASTCALL,
	  "rows(op, x, weight, bias, eps): kgen.<op> of torch tensors whose layouts were made ready before\n"
	  "(set_rows's dict holds its RowsReady), into a new result; NotImplemented for any call this path does\n"
	  "not take." },
	{ "cross_entropy", (PyCFunction)(void (*)(void))fast_cross_entropy, METH_FASTCALL,
	  "cross_entropy(x, labels, ignore_index): kgen.cross_entropy (reduction='none') of torch tensors whose\n"
	  "layouts were made ready before, into new losses; NotImplemented for any call this path does not take." },
	{ "matmul", (PyCFunction)(void (*)(void))fast_matmul_call, METH_FASTCALL,
	  "matmul(a, b): kgen.matmul(a, b) of torch tensors whose layouts and alignment were made ready before\n"
	  "(set_matmul's dict holds its MatmulReady), into a new result; NotImplemented for any call this path\n"
	  "does not take." },
	{ "set_matmul", fast_set_matmul, METH_VARARGS,
	  "set_matmul(kgen_matmul, ready): libkgen's kgen_matmul (an address) and the dict of MatmulReady calls,\n"
	  "after set_entry." },
	{ "scan", (PyCFunction)(void (*)(void))fast_scan_call, METH_FASTCALL,
	  "scan(op, exclusive, dim, x): kgen.scan (kgen.cumsum: op 'sum') of a torch tensor whose layout was made\n"
	  "ready before (set_scan's dict holds its RowsReady: a vector is one row), into a new result;\n"
	  "NotImplemented for any call this path does not take." },
	{ "set_scan", fast_set_scan, METH_VARARGS,
	  "set_scan(kgen_scan_rows, ready, kgen_scan_cols): libkgen's kgen_scan_rows (an address), the dict of the\n"
	  "scans' RowsReady calls and kgen_scan_cols (an address, or 0 where libkgen lacks it: a RowsReady down the\n"
	  "columns is refused), after set_entry." },
	{ "set_rows", fast_set_rows, METH_VARARGS,
	  "set_rows(kgen_rows, ready): libkgen's kgen_rows (an address) and the dict of RowsReady calls, after\n"
	  "set_entry." },
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef fast_module = {
	PyModuleDef_HEAD_INIT, "kgen._fast",
	"kgen.reduce's, the row functions', kgen.scan's and kgen.matmul's torch fast path in C (kgen/_fast.c says how "
	"it is used).",
	-1, fast_methods,
	NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC
PyInit__fast(void)
{
	PyObject *m;

	if (!(s_dtype = PyUnicode_InternFromString("dtype")) || !(s_shape = PyUnicode_InternFromString("shape")) ||
	    !(s_stride = PyUnicode_InternFromString("stride")) ||
	    !(s_get_device = PyUnicode_InternFromString("get_device")) ||
	    !(s_data_ptr = PyUnicode_InternFromString("data_ptr")) ||
	    !(s_is_contiguous = PyUnicode_InternFromString("is_contiguous")) ||
	    !(s_new_empty = PyUnicode_InternFromString("new_empty")) ||
	    !(s_cross_entropy = PyUnicode_InternFromString("cross_entropy")) ||
	    !(s_nbytes = PyUnicode_InternFromString("nbytes")))
		return NULL;
	if (PyType_Ready(&ReadyType) < 0 || PyType_Ready(&RowsReadyType) < 0 || PyType_Ready(&MatmulReadyType) < 0 ||
	    !(m = PyModule_Create(&fast_module)))
		return NULL;
	if (PyModule_AddObject(m, "Ready", Py_NewRef((PyObject *)&ReadyType)) < 0) {
		Py_DECREF((PyObject *)&ReadyType);
		Py_DECREF(m);
		return NULL;
	}
	if (PyModule_AddObject(m, "RowsReady", Py_NewRef((PyObject *)&RowsReadyType)) < 0) {
		Py_DECREF((PyObject *)&RowsReadyType);
		Py_DECREF(m);
		return NULL;
	}
	if (PyModule_AddObject(m, "MatmulReady", Py_NewRef((PyObject *)&MatmulReadyType)) < 0) {
		Py_DECREF((PyObject *)&MatmulReadyType);
		Py_DECREF(m);
		return NULL;
	}
	if (PyModule_AddIntConstant(m, "PACKED_COUNT", KGEN_PACKED_COUNT) < 0 ||
	    PyModule_AddIntConstant(m, "ABI", KGEN_FAST_ABI) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
