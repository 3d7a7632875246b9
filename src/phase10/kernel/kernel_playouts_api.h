/* The Kernel type's determinizing methods: determinize and random play-outs (and reading
 * the cards each seat is known to hold, which the search reads too).
 * Part of _kernel.c, which includes it after the type's struct and helpers: the kernel is
 * one compilation unit. */
#ifndef PHASE10_KERNEL_PLAYOUTS_API_H
#define PHASE10_KERNEL_PLAYOUTS_API_H

static int read_known(KernelObject *self, int viewer, PyObject *known, int out[MAXP][NCARDS]) {
    if (viewer < 0 || viewer >= self->s.n) {
        PyErr_Format(PyExc_ValueError, "no player %d", viewer);
        return -1;
    }
    memset(out, 0, sizeof(int) * MAXP * NCARDS);
    PyObject *fast = PySequence_Fast(known, "known: one sequence of cards per player");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != self->s.n) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "known: one sequence of cards per player (%d)", self->s.n);
        return -1;
    }
    for (int p = 0; p < self->s.n; p++) {
        uint8_t cards[MAXHAND];
        int n = read_cards(PySequence_Fast_GET_ITEM(fast, p), cards, MAXHAND, "known cards");
        if (n < 0) {
            Py_DECREF(fast);
            return -1;
        }
        for (int i = 0; i < n; i++) out[p][cards[i]]++;
    }
    Py_DECREF(fast);
    return 0;
}

static PyObject *Kernel_determinize(KernelObject *self, PyObject *args) {
    int viewer;
    PyObject *known;
    unsigned long long seed;
    int counts[MAXP][NCARDS];
    if (!PyArg_ParseTuple(args, "iOK", &viewer, &known, &seed)) return NULL;
    if (read_known(self, viewer, known, counts)) return NULL;
    uint64_t x = seed;
    determinize(&self->s, viewer, counts, &x);
    self->al_valid = 0;
    self->rl.mask_valid = 0;
    Py_RETURN_NONE;
}

static PyObject *Kernel_playouts(KernelObject *self, PyObject *args) {
    int viewer, count;
    PyObject *known;
    unsigned long long seed;
    long long max_actions = -1;
    int counts[MAXP][NCARDS];
    if (!PyArg_ParseTuple(args, "iOiK|L", &viewer, &known, &count, &seed, &max_actions))
        return NULL;
    if (read_known(self, viewer, known, counts)) return NULL;
    if (count < 0) return PyErr_Format(PyExc_ValueError, "a count of play-outs, not %d", count);
    State *ends = malloc(sizeof(State) * (size_t)(count ? count : 1));
    long long *played = malloc(sizeof(long long) * (size_t)(count ? count : 1));
    if (!ends || !played) {
        free(ends);
        free(played);
        return PyErr_NoMemory();
    }
    uint64_t x = seed;
    State start = self->s; /* read with the GIL held: the play-outs run without it */
    Py_BEGIN_ALLOW_THREADS;
    ActList al;
    memset(&al, 0, sizeof(al));
    for (int i = 0; i < count; i++) {
        ends[i] = start;
        determinize(&ends[i], viewer, counts, &x);
        played[i] = play_random(&ends[i], &al, &x, max_actions);
    }
    al_free(&al);
    Py_END_ALLOW_THREADS;
    PyObject *list = PyList_New(count);
    for (int i = 0; list && i < count; i++) {
        int scores[MAXP];
        for (int p = 0; p < ends[i].n; p++) scores[p] = ends[i].seats[p].score;
        PyObject *item = Py_BuildValue("(NNL)", ints_tuple(ends[i].winners, ends[i].n_winners),
                                       ints_tuple(scores, ends[i].n), played[i]);
        if (!item) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, item);
    }
    free(ends);
    free(played);
    return list;
}

#endif
