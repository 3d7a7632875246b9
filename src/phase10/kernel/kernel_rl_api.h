/* The RLStepper type: phase10.rl's stepping (action numbers, masks, observations, rewards)
 * over Kernel games, one at a time or as a batch written into numpy arrays (through the
 * buffer protocol). Part of _kernel.c, which includes it after the Kernel type's struct
 * and helpers: the kernel is one compilation unit. */
#ifndef PHASE10_KERNEL_RL_API_H
#define PHASE10_KERNEL_RL_API_H

typedef struct {
    PyObject_HEAD RLLayout L;
    ActList al; /* scratch for the lay-downs an action number names */
} StepperObject;

static int Stepper_init(StepperObject *self, PyObject *args, PyObject *kwds) {
    int n, version, groups;
    double phase_reward = 0.0;
    static char *kwlist[] = {"players", "version", "groups", "phase_reward", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iii|d", kwlist, &n, &version, &groups,
                                     &phase_reward))
        return -1;
    if (n < 2 || n > MAXP || version < 0 || version > 3 || groups < 1 || groups > MAXG) {
        PyErr_Format(PyExc_ValueError, "no encoding for %d players, version %d, %d groups", n,
                     version, groups);
        return -1;
    }
    rl_layout(&self->L, version, n, groups, phase_reward);
    return 0;
}

static void Stepper_dealloc(StepperObject *self) {
    al_free(&self->al);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* the Kernel argument, checked: a game of this stepper's players */
static KernelObject *rl_kernel(StepperObject *self, PyObject *obj) {
    if (!PyObject_TypeCheck(obj, &KernelType)) {
        PyErr_SetString(PyExc_TypeError, "a Kernel game is needed");
        return NULL;
    }
    KernelObject *k = (KernelObject *)obj;
    const State *s = &k->s;
    if (s->n != self->L.n) {
        PyErr_Format(PyExc_ValueError, "a game of %d players, not %d", self->L.n, s->n);
        return NULL;
    }
    /* what this version cannot number (Layout refuses such rules too) */
    int groups = 0;
    for (int i = 0; i < s->nphases; i++)
        if (s->phases[i].ngroups > groups) groups = s->phases[i].ngroups;
    if (groups > self->L.groups || (self->L.version < 2 && (s->save_pile || s->give_up)) ||
        (self->L.version < 3 && s->antis)) {
        PyErr_Format(PyExc_ValueError, "version %d of the encoding with %d groups a phase "
                     "cannot number this game's actions", self->L.version, self->L.groups);
        return NULL;
    }
    return k;
}

/* a writable C-contiguous buffer of count items of itemsize bytes */
static int rl_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, Py_ssize_t count,
                     int writable, const char *what) {
    if (PyObject_GetBuffer(obj, view, (writable ? PyBUF_WRITABLE : 0) | PyBUF_C_CONTIGUOUS))
        return -1;
    if (view->itemsize != itemsize || view->len != itemsize * count) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items of %zd bytes needed", what, count, itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* the mask of k's position, worked out once per position */
static const int8_t *rl_cached_mask(StepperObject *self, KernelObject *k) {
    RLTrack *t = &k->rl;
    if (t->mask_valid && t->mask_len == self->L.num_actions) return t->mask;
    if (t->mask_len != self->L.num_actions) {
        int8_t *m = realloc(t->mask, (size_t)self->L.num_actions);
        if (!m) {
            PyErr_NoMemory();
            return NULL;
        }
        t->mask = m;
        t->mask_len = self->L.num_actions;
    }
    rl_mask(&k->s, &self->L, t->mask);
    t->mask_valid = 1;
    return t->mask;
}

/* after an action: the kernel's own lists and events are stale */
static void rl_touched(KernelObject *k) {
    k->al_valid = 0;
    k->rl.mask_valid = 0;
    Py_CLEAR(k->events);
}

/* step one action number (checked against the mask): rewards into rewards; logged */
static int rl_step(StepperObject *self, KernelObject *k, long action, double *rewards) {
    const int8_t *mask = rl_cached_mask(self, k);
    if (!mask) return -1;
    if (action < 0 || action >= self->L.num_actions || !mask[action]) {
        PyErr_Format(PyExc_ValueError, "action %ld is not legal now", action);
        return -1;
    }
    Act a;
    LayDown ld;
    if (rl_decode(&k->s, &self->L, (int)action, &a, &ld, &self->al)) {
        PyErr_Format(PyExc_RuntimeError, "action %ld could not be decoded", action);
        return -1;
    }
    RLTrack *t = &k->rl;
    if (t->log_len == t->log_cap) {
        int cap = t->log_cap ? t->log_cap * 2 : 256;
        int *log = realloc(t->log, sizeof(int) * (size_t)cap);
        if (!log) {
            PyErr_NoMemory();
            return -1;
        }
        t->log = log;
        t->log_cap = cap;
    }
    t->log[t->log_len++] = (int)action;
    int hand = k->s.hand_number;
    apply_act(&k->s, &a, &ld);
    rl_touched(k);
    t->steps++;
    rl_rewards(&k->s, &self->L, hand, t->completed, rewards);
    return 0;
}

static PyObject *rl_rewards_tuple(const double *rewards, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int p = 0; p < n; p++) PyTuple_SET_ITEM(t, p, PyFloat_FromDouble(rewards[p]));
    return t;
}

static PyObject *Stepper_start(StepperObject *self, PyObject *arg) {
    KernelObject *k = rl_kernel(self, arg);
    if (!k) return NULL;
    for (int p = 0; p < k->s.n; p++) k->rl.completed[p] = popcount(k->s.seats[p].completed);
    k->rl.steps = 0;
    k->rl.log_len = 0;
    k->rl.mask_valid = 0;
    Py_RETURN_NONE;
}

static PyObject *Stepper_mask(StepperObject *self, PyObject *args) {
    PyObject *kobj, *out;
    if (!PyArg_ParseTuple(args, "OO", &kobj, &out)) return NULL;
    KernelObject *k = rl_kernel(self, kobj);
    if (!k) return NULL;
    Py_buffer view;
    if (rl_buffer(out, &view, 1, self->L.num_actions, 1, "the mask")) return NULL;
    const int8_t *mask = rl_cached_mask(self, k);
    if (mask) memcpy(view.buf, mask, (size_t)self->L.num_actions);
    PyBuffer_Release(&view);
    if (!mask) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Stepper_observe(StepperObject *self, PyObject *args) {
    PyObject *kobj, *out;
    int seat;
    if (!PyArg_ParseTuple(args, "OiO", &kobj, &seat, &out)) return NULL;
    KernelObject *k = rl_kernel(self, kobj);
    if (!k) return NULL;
    if (seat < 0 || seat >= self->L.n) return PyErr_Format(PyExc_ValueError, "no seat %d", seat);
    Py_buffer view;
    if (rl_buffer(out, &view, 4, self->L.obs_size, 1, "the observation")) return NULL;
    rl_observe(&k->s, &self->L, seat, (float *)view.buf);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyObject *Stepper_step(StepperObject *self, PyObject *args) {
    PyObject *kobj;
    long action;
    if (!PyArg_ParseTuple(args, "Ol", &kobj, &action)) return NULL;
    KernelObject *k = rl_kernel(self, kobj);
    if (!k) return NULL;
    if (k->s.stage == ST_OVER) return PyErr_Format(PyExc_ValueError, "the game is over");
    double rewards[MAXP];
    if (rl_step(self, k, action, rewards)) return NULL;
    return rl_rewards_tuple(rewards, k->s.n);
}

/* an engine action, as a kernel tuple (Kernel.apply checks it): not logged, since the
 * engine game plays it itself */
static PyObject *Stepper_apply(StepperObject *self, PyObject *args) {
    PyObject *kobj, *key;
    if (!PyArg_ParseTuple(args, "OO", &kobj, &key)) return NULL;
    KernelObject *k = rl_kernel(self, kobj);
    if (!k) return NULL;
    int hand = k->s.hand_number;
    PyObject *done = Kernel_apply(k, key);
    if (!done) return NULL;
    Py_DECREF(done);
    rl_touched(k);
    k->rl.steps++;
    double rewards[MAXP];
    rl_rewards(&k->s, &self->L, hand, k->rl.completed, rewards);
    return rl_rewards_tuple(rewards, k->s.n);
}

static PyObject *Stepper_take_log(StepperObject *self, PyObject *arg) {
    KernelObject *k = rl_kernel(self, arg);
    if (!k) return NULL;
    PyObject *list = PyList_New(k->rl.log_len);
    for (int i = 0; list && i < k->rl.log_len; i++) {
        PyObject *v = PyLong_FromLong(k->rl.log[i]);
        if (!v) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, v);
    }
    if (list) k->rl.log_len = 0;
    return list;
}

static PyObject *Stepper_status(StepperObject *self, PyObject *arg) {
    KernelObject *k = rl_kernel(self, arg);
    if (!k) return NULL;
    return Py_BuildValue("(iiLi)", k->s.current, k->s.stage == ST_OVER, k->rl.steps,
                         k->rl.log_len);
}

/* ended(kernel, max_steps): 0 while the episode goes on, 1 once the game is over, 2 once
 * it is cut at max_steps actions */
static PyObject *Stepper_ended(StepperObject *self, PyObject *args) {
    PyObject *kobj;
    long long max_steps;
    if (!PyArg_ParseTuple(args, "OL", &kobj, &max_steps)) return NULL;
    KernelObject *k = rl_kernel(self, kobj);
    if (!k) return NULL;
    return PyLong_FromLong(k->s.stage == ST_OVER ? 1 : k->rl.steps >= max_steps ? 2 : 0);
}

static PyObject *Stepper_winners(StepperObject *self, PyObject *arg) {
    KernelObject *k = rl_kernel(self, arg);
    if (!k) return NULL;
    return ints_tuple(k->s.winners, k->s.n_winners);
}

static PyObject *Stepper_completed(StepperObject *self, PyObject *args) {
    PyObject *kobj, *counts = NULL;
    if (!PyArg_ParseTuple(args, "O|O", &kobj, &counts)) return NULL;
    KernelObject *k = rl_kernel(self, kobj);
    if (!k) return NULL;
    if (counts) {
        int v[MAXP];
        int got = read_ints(counts, v, MAXP, "phases completed per seat");
        if (got < 0) return NULL;
        if (got != k->s.n) return PyErr_Format(PyExc_ValueError, "one count per seat");
        memcpy(k->rl.completed, v, sizeof(int) * (size_t)got);
    }
    return ints_tuple(k->rl.completed, k->s.n);
}

/* row i of the batch: the player to act, their mask and observation */
static int rl_write(StepperObject *self, KernelObject *k, Py_ssize_t i, float *obs, int8_t *masks,
                    int64_t *agents) {
    const int8_t *mask = rl_cached_mask(self, k);
    if (!mask) return -1;
    agents[i] = k->s.current;
    memcpy(masks + i * self->L.num_actions, mask, (size_t)self->L.num_actions);
    rl_observe(&k->s, &self->L, k->s.current, obs + i * self->L.obs_size);
    return 0;
}

enum { B_OBS, B_MASKS, B_AGENTS, B_ACTIONS, B_REWARDS, B_TERM, B_TRUNC, B_COUNT };

/* the batch's arrays (those in want), for count games; -1 with an exception */
static int rl_batch_buffers(StepperObject *self, PyObject **objs, Py_buffer *views, int want,
                            Py_ssize_t count) {
    static const char *names[B_COUNT] = {"observations", "masks", "agents", "actions",
                                         "rewards", "terminated", "truncated"};
    const Py_ssize_t size[B_COUNT] = {4, 1, 8, 8, 4, 1, 1};
    const Py_ssize_t per[B_COUNT] = {self->L.obs_size, self->L.num_actions, 1, 1, self->L.n, 1, 1};
    for (int b = 0; b < B_COUNT; b++) {
        views[b].obj = NULL;
        if (!((want >> b) & 1)) continue;
        if (rl_buffer(objs[b], &views[b], size[b], per[b] * count, b != B_ACTIONS, names[b])) {
            for (int c = 0; c < b; c++)
                if (views[c].obj) PyBuffer_Release(&views[c]);
            return -1;
        }
    }
    return 0;
}

static void rl_release(Py_buffer *views) {
    for (int b = 0; b < B_COUNT; b++)
        if (views[b].obj) PyBuffer_Release(&views[b]);
}

static PyObject *Stepper_write(StepperObject *self, PyObject *args) {
    PyObject *kobj, *objs[B_COUNT] = {NULL};
    Py_ssize_t i, count;
    if (!PyArg_ParseTuple(args, "OnnOOO", &kobj, &i, &count, &objs[B_OBS], &objs[B_MASKS],
                          &objs[B_AGENTS]))
        return NULL;
    KernelObject *k = rl_kernel(self, kobj);
    if (!k) return NULL;
    if (i < 0 || i >= count) return PyErr_Format(PyExc_IndexError, "no row %zd of %zd", i, count);
    Py_buffer views[B_COUNT];
    int want = 1 << B_OBS | 1 << B_MASKS | 1 << B_AGENTS;
    if (rl_batch_buffers(self, objs, views, want, count)) return NULL;
    int err = rl_write(self, k, i, views[B_OBS].buf, views[B_MASKS].buf, views[B_AGENTS].buf);
    rl_release(views);
    if (err) return NULL;
    Py_RETURN_NONE;
}

/* step_batch(kernels, actions, max_steps, observations, masks, agents, rewards, terminated,
 * truncated): one action number in every game; the rows of the games that go on are
 * written, and the indices of those that ended (terminated or truncated at max_steps) are
 * returned for the caller to start again */
static PyObject *Stepper_step_batch(StepperObject *self, PyObject *args) {
    PyObject *kernels, *objs[B_COUNT];
    long long max_steps;
    if (!PyArg_ParseTuple(args, "OOLOOOOOO", &kernels, &objs[B_ACTIONS], &max_steps,
                          &objs[B_OBS], &objs[B_MASKS], &objs[B_AGENTS], &objs[B_REWARDS],
                          &objs[B_TERM], &objs[B_TRUNC]))
        return NULL;
    if (!PyList_Check(kernels)) return PyErr_Format(PyExc_TypeError, "a list of Kernel games");
    Py_ssize_t count = PyList_GET_SIZE(kernels);
    for (Py_ssize_t i = 0; i < count; i++)
        if (!rl_kernel(self, PyList_GET_ITEM(kernels, i))) return NULL;
    Py_buffer v[B_COUNT];
    if (rl_batch_buffers(self, objs, v, (1 << B_COUNT) - 1, count)) return NULL;
    const int64_t *actions = v[B_ACTIONS].buf;
    float *rewards = v[B_REWARDS].buf;
    char *term = v[B_TERM].buf, *trunc = v[B_TRUNC].buf;
    PyObject *ended = PyList_New(0);
    int n = self->L.n;
    for (Py_ssize_t i = 0; ended && i < count; i++) {
        KernelObject *k = (KernelObject *)PyList_GET_ITEM(kernels, i);
        double r[MAXP];
        if (k->s.stage == ST_OVER) {
            PyErr_Format(PyExc_ValueError, "game %zd is over: start it again", i);
            Py_CLEAR(ended);
            break;
        }
        if (rl_step(self, k, (long)actions[i], r)) {
            PyObject *type, *value, *tb; /* name the game */
            PyErr_Fetch(&type, &value, &tb);
            PyErr_Format(type, "game %zd: %S", i, value);
            Py_XDECREF(type);
            Py_XDECREF(value);
            Py_XDECREF(tb);
            Py_CLEAR(ended);
            break;
        }
        for (int p = 0; p < n; p++) rewards[i * n + p] = (float)r[p];
        term[i] = k->s.stage == ST_OVER;
        trunc[i] = !term[i] && k->rl.steps >= max_steps;
        if (term[i] || trunc[i]) {
            PyObject *index = PyLong_FromSsize_t(i);
            if (!index || PyList_Append(ended, index)) Py_CLEAR(ended);
            Py_XDECREF(index);
        } else if (rl_write(self, k, i, v[B_OBS].buf, v[B_MASKS].buf, v[B_AGENTS].buf)) {
            Py_CLEAR(ended);
        }
    }
    rl_release(v);
    return ended;
}

/* how many of the n (at most 8) bytes at p are 1 (the 0/1 bytes of a word summed by one
 * multiply) */
static long rl_ones(const int8_t *p, int n) {
    uint64_t word = 0;
    if (n < 8) {
        long ones = 0;
        for (int i = 0; i < n; i++) ones += p[i] & 1;
        return ones;
    }
    memcpy(&word, p, 8);
    return (long)(((word & 0x0101010101010101ull) * 0x0101010101010101ull) >> 56);
}

/* choose(masks, uniforms, out): in each row of masks (0/1), the legal action number
 * floor(u * legal) in order (the last if that rounds up to legal; 0 with none) */
static PyObject *Stepper_choose(StepperObject *self, PyObject *args) {
    PyObject *objs[3];
    if (!PyArg_ParseTuple(args, "OOO", &objs[0], &objs[1], &objs[2])) return NULL;
    Py_buffer masks, uniforms, out;
    int A = self->L.num_actions;
    if (PyObject_GetBuffer(objs[0], &masks, PyBUF_C_CONTIGUOUS)) return NULL;
    Py_ssize_t count = masks.len / A;
    if (masks.itemsize != 1 || masks.len != count * A) {
        PyBuffer_Release(&masks);
        return PyErr_Format(PyExc_ValueError, "masks: rows of %d bytes", A);
    }
    if (rl_buffer(objs[1], &uniforms, 8, count, 0, "uniforms")) {
        PyBuffer_Release(&masks);
        return NULL;
    }
    if (rl_buffer(objs[2], &out, 8, count, 1, "the actions")) {
        PyBuffer_Release(&masks);
        PyBuffer_Release(&uniforms);
        return NULL;
    }
    const int8_t *m = masks.buf;
    const double *u = uniforms.buf;
    int64_t *chosen = out.buf;
    for (Py_ssize_t i = 0; i < count; i++) {
        const int8_t *row = m + i * A;
        long legal = 0;
        int a = 0;
        while (a + 8 <= A) { /* eight byte-wide counters, summed every 255 words at most */
            uint64_t lanes = 0;
            for (int words = 0; words < 255 && a + 8 <= A; words++, a += 8) {
                uint64_t word;
                memcpy(&word, row + a, 8);
                lanes += word & 0x0101010101010101ull;
            }
            for (int lane = 0; lane < 8; lane++) legal += (long)((lanes >> (8 * lane)) & 0xffu);
        }
        legal += rl_ones(row + a, A - a);
        long k = (long)(u[i] * (double)legal);
        if (k >= legal) k = legal - 1;
        chosen[i] = 0;
        for (a = 0; k >= 0 && a < A; a += 8) { /* to the word that holds it, then to it */
            int width = A - a < 8 ? A - a : 8;
            long ones = rl_ones(row + a, width);
            if (k >= ones) {
                k -= ones;
                continue;
            }
            for (int b = 0; b < width; b++)
                if ((row[a + b] & 1) && k-- == 0) chosen[i] = a + b;
            break;
        }
    }
    PyBuffer_Release(&masks);
    PyBuffer_Release(&uniforms);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

static PyObject *Stepper_get_sizes(StepperObject *self, void *closure) {
    (void)closure;
    return Py_BuildValue("(ii)", self->L.num_actions, self->L.obs_size);
}

static PyMethodDef Stepper_methods[] = {
    {"start", (PyCFunction)Stepper_start, METH_O, "A new episode from the game's position."},
    {"mask", (PyCFunction)Stepper_mask, METH_VARARGS, "Write the legal actions as 0/1."},
    {"observe", (PyCFunction)Stepper_observe, METH_VARARGS, "Write a seat's observation."},
    {"step", (PyCFunction)Stepper_step, METH_VARARGS, "Play an action number: the rewards."},
    {"apply", (PyCFunction)Stepper_apply, METH_VARARGS, "Play a kernel action: the rewards."},
    {"take_log", (PyCFunction)Stepper_take_log, METH_O, "The action numbers not yet taken."},
    {"status", (PyCFunction)Stepper_status, METH_O, "(current, over, steps, logged)."},
    {"winners", (PyCFunction)Stepper_winners, METH_O, "The game's winners."},
    {"ended", (PyCFunction)Stepper_ended, METH_VARARGS,
     "0 while the episode goes on, 1 game over, 2 cut at max_steps."},
    {"completed", (PyCFunction)Stepper_completed, METH_VARARGS,
     "The phases completed at the last hand's end (set them if given)."},
    {"write", (PyCFunction)Stepper_write, METH_VARARGS, "Write one row of a batch."},
    {"step_batch", (PyCFunction)Stepper_step_batch, METH_VARARGS,
     "One action number in every game; the games that ended."},
    {"choose", (PyCFunction)Stepper_choose, METH_VARARGS,
     "A legal action per row of masks, picked by a uniform number each."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Stepper_getset[] = {
    {"sizes", (getter)Stepper_get_sizes, NULL, "(actions, observation size)", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject StepperType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "phase10.kernel._kernel.RLStepper",
    .tp_basicsize = sizeof(StepperObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Reinforcement-learning stepping over kernel games.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Stepper_init,
    .tp_dealloc = (destructor)Stepper_dealloc,
    .tp_methods = Stepper_methods,
    .tp_getset = Stepper_getset,
};

#endif
