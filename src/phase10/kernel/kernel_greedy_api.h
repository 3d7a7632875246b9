/* The Kernel type's greedy-policy methods: greedy_action, set_knowledge, play_greedy.
 * Part of _kernel.c, which includes it after the type's struct and helpers: the kernel is
 * one compilation unit. */
#ifndef PHASE10_KERNEL_GREEDY_API_H
#define PHASE10_KERNEL_GREEDY_API_H

/* ---------------------------------------------------------------- the greedy policy */

/* a random.Random's state as getstate()[1] holds it: 624 words and the position */
static int read_mt(PyObject *seq, MT *m) {
    PyObject *fast = PySequence_Fast(seq, "a generator state (random.Random.getstate()[1])");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != 625) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "a generator state holds 625 numbers");
        return -1;
    }
    for (int i = 0; i < 625; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == (unsigned long)-1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (i < 624)
            m->mt[i] = (uint32_t)v;
        else if (v > 624) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "a generator state's position is at most 624");
            return -1;
        } else
            m->mti = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

static PyObject *mt_tuple(const MT *m) {
    PyObject *t = PyTuple_New(625);
    if (!t) return NULL;
    for (int i = 0; i < 625; i++) {
        PyObject *v = PyLong_FromUnsignedLong(i < 624 ? m->mt[i] : (unsigned long)m->mti);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

static PyObject *Kernel_greedy_action(KernelObject *self, PyObject *arg) {
    MT m;
    if (read_mt(arg, &m)) return NULL;
    if (self->s.stage == ST_OVER) return PyErr_Format(PyExc_ValueError, "the game is over");
    if (ensure_legal(self)) return NULL;
    if (self->al.n == 0) return PyErr_Format(PyExc_ValueError, "no legal action");
    int i = greedy_choose(&self->s, &self->al, &m);
    PyObject *action = act_to_tuple(&self->al.acts[i], &self->al);
    if (!action) return NULL;
    return Py_BuildValue("(NN)", action, mt_tuple(&m));
}

static PyObject *Kernel_set_knowledge(KernelObject *self, PyObject *args) {
    int events;
    PyObject *counts, *started;
    if (!PyArg_ParseTuple(args, "iOO", &events, &counts, &started)) return NULL;
    int held[MAXP][NCARDS], on[MAXP];
    PyObject *fast = PySequence_Fast(counts, "the held counts, per seat");
    if (!fast) return NULL;
    int ok = PySequence_Fast_GET_SIZE(fast) == self->s.n;
    for (int p = 0; ok && p < self->s.n; p++) {
        memset(held[p], 0, sizeof(held[p]));
        PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, p), "a seat's counts");
        if (!row) {
            Py_DECREF(fast);
            return NULL;
        }
        Py_ssize_t len = PySequence_Fast_GET_SIZE(row);
        for (Py_ssize_t c = 0; ok && c < len; c++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(row, c));
            if (v == -1 && PyErr_Occurred()) ok = 0;
            else if (c < NCARDS) held[p][c] = (int)v;
            else if (v) ok = 0;
        }
        Py_DECREF(row);
    }
    Py_DECREF(fast);
    if (!ok || read_ints(started, on, MAXP, "started") != self->s.n) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "one row of counts per seat");
        return NULL;
    }
    self->s.hand_events = events;
    for (int p = 0; p < self->s.n; p++) {
        for (int c = 0; c < NCARDS; c++) self->s.held[p][c] = (int16_t)held[p][c];
        self->s.held_on[p] = (uint8_t)(on[p] != 0);
    }
    Py_RETURN_NONE;
}

static PyObject *Kernel_play_greedy(KernelObject *self, PyObject *args) {
    PyObject *states;
    long long max_actions = -1;
    int record = 0;
    if (!PyArg_ParseTuple(args, "O|Lp", &states, &max_actions, &record)) return NULL;
    MT rngs[MAXP];
    PyObject *fast = PySequence_Fast(states, "one generator state per seat");
    if (!fast) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != self->s.n) {
        Py_DECREF(fast);
        return PyErr_Format(PyExc_ValueError, "one generator state per seat (%d)", self->s.n);
    }
    for (int p = 0; p < self->s.n; p++)
        if (read_mt(PySequence_Fast_GET_ITEM(fast, p), &rngs[p])) {
            Py_DECREF(fast);
            return NULL;
        }
    Py_DECREF(fast);
    PyObject *chosen = record ? PyList_New(0) : NULL;
    if (record && !chosen) return NULL;
    long long done = 0;
    while (self->s.stage != ST_OVER && (max_actions < 0 || done < max_actions) && !steps_spent) {
        if (ensure_legal(self) || self->al.n == 0) break;
        int i = greedy_choose(&self->s, &self->al, &rngs[self->s.current]);
        if (record) {
            PyObject *t = act_to_tuple(&self->al.acts[i], &self->al);
            int err = !t || PyList_Append(chosen, t);
            Py_XDECREF(t);
            if (err) break;
        }
        apply_legal(self, i, 0);
        done++;
    }
    if (PyErr_Occurred()) {
        Py_XDECREF(chosen);
        return NULL;
    }
    PyObject *out = PyTuple_New(self->s.n);
    if (!out) {
        Py_XDECREF(chosen);
        return NULL;
    }
    for (int p = 0; p < self->s.n; p++) PyTuple_SET_ITEM(out, p, mt_tuple(&rngs[p]));
    if (record) return Py_BuildValue("(LNN)", done, chosen, out);
    return Py_BuildValue("(LON)", done, Py_None, out);
}

/* missing(phase, hand, limit): the greedy policy's count of the cards the hand (card
 * indices) still needs for phase number phase of this game's list (from 0), as
 * phase10.core.feasibility.missing counts them; what the tests hold the two to */
static PyObject *Kernel_missing(KernelObject *self, PyObject *args) {
    int phase, limit;
    PyObject *hand;
    if (!PyArg_ParseTuple(args, "iOi", &phase, &hand, &limit)) return NULL;
    if (phase < 0 || phase >= self->s.nphases)
        return PyErr_Format(PyExc_ValueError, "this game has phases 0 to %d, not %d",
                            self->s.nphases - 1, phase);
    if (limit < 0 || limit >= IMPOSSIBLE_W)
        return PyErr_Format(PyExc_ValueError, "a limit from 0 to %d, not %d", IMPOSSIBLE_W - 1,
                            limit);
    PyObject *fast = PySequence_Fast(hand, "a hand of card indices");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    int counts[NCARDS] = {0};
    if (n > DECK) {
        Py_DECREF(fast);
        return PyErr_Format(PyExc_ValueError, "a hand of at most %d cards, not %zd", DECK, n);
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long card = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (card == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
        if (card < 0 || card >= NCARDS) {
            Py_DECREF(fast);
            return PyErr_Format(PyExc_ValueError, "no card has the index %ld", card);
        }
        counts[card]++;
    }
    Py_DECREF(fast);
    return PyLong_FromLong(missing(&self->s.phases[phase], counts, limit, self->s.all_wild));
}

/* playouts, with every seat greedy: each seat's generator seeded from x after the deal */
static PyObject *Kernel_greedy_playouts(KernelObject *self, PyObject *args) {
    int viewer, count;
    PyObject *known;
    unsigned long long seed;
    long long max_actions = -1;
    int counts[MAXP][NCARDS];
    if (!PyArg_ParseTuple(args, "iOiK|L", &viewer, &known, &count, &seed, &max_actions))
        return NULL;
    if (read_known(self, viewer, known, counts)) return NULL;
    if (count < 0) return PyErr_Format(PyExc_ValueError, "a count of play-outs, not %d", count);
    PyObject *list = PyList_New(count);
    if (!list) return NULL;
    uint64_t x = seed;
    State *end = malloc(sizeof(State));
    ActList al;
    memset(&al, 0, sizeof(al));
    if (!end) {
        Py_DECREF(list);
        return PyErr_NoMemory();
    }
    for (int i = 0; i < count; i++) {
        MT rngs[MAXP];
        *end = self->s;
        end->log = NULL;
        determinize(end, viewer, counts, &x);
        for (int p = 0; p < end->n; p++) mt_seed(&rngs[p], splitmix(&x));
        long long played;
        Py_BEGIN_ALLOW_THREADS;
        played = play_greedy(end, &al, rngs, max_actions, 0, 0);
        Py_END_ALLOW_THREADS;
        int scores[MAXP];
        for (int p = 0; p < end->n; p++) scores[p] = end->seats[p].score;
        PyObject *item = Py_BuildValue("(NNL)", ints_tuple(end->winners, end->n_winners),
                                       ints_tuple(scores, end->n), played);
        if (!item) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, item);
    }
    al_free(&al);
    free(end);
    return list;
}

#endif
