/* The compiled simulation kernel: the Phase 10 state machine of phase10.core, for the
 * rules it supports (see phase10/kernel/__init__.py and docs/kernel.md), in C99 with the
 * CPython C API and nothing else.
 *
 * The Python engine is the reference: every rule here mirrors core/game.py,
 * core/legality.py and core/laydowns.py, and the differential tests hold the two
 * together action by action. Chance goes through the engine's own generator
 * (MT19937 and random.shuffle's rejection sampling), so a kernel game deals and
 * reshuffles exactly as the engine does from the same generator state.
 *
 * Cards are the engine's compact indices: 0-47 numbered (colour * 12 + number - 1,
 * colours R B G Y), 48 the Wild, 49 the Skip. Group kinds are numbered in the order
 * their names sort (colour 0, run 1, set 2), as the engine orders phase slots.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "kernel_rl.h"

/* ---------------------------------------------------------------- the Python type */

typedef struct {
    PyObject_HEAD State s;
    ActList al;
    int al_valid;         /* al holds the legal actions of s */
    PyObject *events;     /* the last action's events (a list), or NULL */
    int events_failed;    /* making an event tuple failed (an exception is set) */
    RLTrack rl;           /* an RL environment's bookkeeping (kernel_rl_api.h) */
} KernelObject;

static void log_event(State *s, PyObject *event) {
    PyObject *list = (PyObject *)s->log;
    if (!event || PyList_Append(list, event)) s->log = NULL; /* stop; the error stays set */
    Py_XDECREF(event);
}

static int ensure_legal(KernelObject *self) {
    if (self->al_valid) return 0;
    int err;
    if (steps_bounded) {
        /* a bounded search's listing (the expert's, in a server's worker thread) may take
         * a large part of its bound under some house phases: other threads (the event
         * loop) go on meanwhile. Unbounded listings (RL stepping) are quick: they keep
         * the lock, which costs less than letting it go. */
        Py_BEGIN_ALLOW_THREADS;
        err = legal(&self->s, &self->al);
        Py_END_ALLOW_THREADS;
    } else {
        err = legal(&self->s, &self->al);
    }
    if (err) {
        PyErr_NoMemory();
        return -1;
    }
    self->al_valid = 1;
    return 0;
}

static PyObject *group_to_tuple(const Group *g) {
    PyObject *cards = PyTuple_New(g->len);
    if (!cards) return NULL;
    for (int i = 0; i < g->len; i++) PyTuple_SET_ITEM(cards, i, PyLong_FromLong(g->cards[i]));
    if (wild_value(g) >= 0) return Py_BuildValue("(iNi)", g->kind, cards, wild_value(g));
    return Py_BuildValue("(iN)", g->kind, cards);
}

static PyObject *act_to_tuple(const Act *a, const ActList *al) {
    switch (a->type) {
    case A_DRAW:
    case A_TAKE:
    case A_GIVE_UP:
        return Py_BuildValue("(i)", a->type);
    case A_GIVE:
    case A_DECLARE:
        return Py_BuildValue("(ii)", a->type, a->arg);
    case A_SAVE:
    case A_TAKE_SAVED:
        return Py_BuildValue("(ii)", a->type, a->card);
    case A_DISCARD:
        return Py_BuildValue("(iii)", a->type, a->card, a->arg);
    case A_HIT:
        return Py_BuildValue("(iiii)", a->type, a->card, a->arg, a->number);
    default: {
        const LayDown *ld = &al->lays[a->lay];
        PyObject *groups = PyTuple_New(ld->ngroups);
        if (!groups) return NULL;
        for (int i = 0; i < ld->ngroups; i++) {
            PyObject *g = group_to_tuple(&ld->groups[i]);
            if (!g) {
                Py_DECREF(groups);
                return NULL;
            }
            PyTuple_SET_ITEM(groups, i, g);
        }
        if (ld->phase) return Py_BuildValue("(iNi)", a->type, groups, ld->phase);
        return Py_BuildValue("(iN)", a->type, groups);
    }
    }
}

/* read a sequence of small ints into out (at most cap); -1 and an exception on error */
static int read_ints(PyObject *seq, int *out, int cap, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > cap) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: at most %d values, not %zd", what, cap, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

static int read_cards(PyObject *seq, uint8_t *out, int cap, const char *what) {
    int tmp[DECK + 8];
    int n = read_ints(seq, tmp, cap, what);
    for (int i = 0; i < n; i++) {
        if (tmp[i] < 0 || tmp[i] >= NCARDS) {
            PyErr_Format(PyExc_ValueError, "%s: no card has the index %d", what, tmp[i]);
            return -1;
        }
        out[i] = (uint8_t)tmp[i];
    }
    return n;
}

/* a group from (kind, cards); its values worked out from its cards */
/* a group from (kind, cards), or (kind, cards, value) for a group of Wilds alone */
static int read_group(PyObject *item, Group *g) {
    PyObject *cards;
    int kind, value = 0;
    if (!PyArg_ParseTuple(item, "iO|i", &kind, &cards, &value)) return -1;
    if (kind < 0 || kind >= NKINDS) {
        PyErr_Format(PyExc_ValueError, "no group kind %d", kind);
        return -1;
    }
    int n = read_cards(cards, g->cards, MAXGC, "a group's cards");
    if (n < 0) return -1;
    g->kind = (uint8_t)kind;
    g->len = (uint8_t)n;
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "a group needs at least one card");
        return -1;
    }
    if (group_values(g)) { /* Wilds alone: the value declared */
        static const int most[NKINDS] = {3, 7, 51, 1, 12, 12}; /* wild_value's range */
        int least = kind == K_SET || kind == K_RUN ? 1 : kind == K_COLOR_RUN ? 4 : 0;
        if (value < least || value > most[kind]) {
            PyErr_Format(PyExc_ValueError, "a group of Wilds alone needs a value, not %d", value);
            return -1;
        }
        set_wild_value(g, value);
    }
    /* the cards must make the group (Group.make's checks, for a state read from outside) */
    for (int i = 0; i < n; i++) {
        int c = g->cards[i];
        int bad = c == SKIP || c == ANTI ||
                  (c < 48 && ((kind == K_SET && card_number(c) != g->number) ||
                              (g->color >= 0 && card_color(c) != g->color) ||
                              (g->parity >= 0 && card_number(c) % 2 != g->parity) ||
                              (is_run_kind(kind) && card_number(c) != g->low + i)));
        if (bad) {
            PyErr_Format(PyExc_ValueError, "card %d does not belong in place %d of this group", c, i);
            return -1;
        }
    }
    if (is_run_kind(kind) && (g->low < 1 || g->low + n - 1 > 12)) {
        PyErr_SetString(PyExc_ValueError, "a run must lie within 1 to 12");
        return -1;
    }
    if (!is_run_kind(kind)) {
        uint8_t sorted[MAXGC];
        memcpy(sorted, g->cards, (size_t)n);
        sort_by_key(sorted, n);
        if (memcmp(sorted, g->cards, (size_t)n)) {
            PyErr_SetString(PyExc_ValueError, "a set's or colour group's cards go in sort order");
            return -1;
        }
    }
    return 0;
}

/* every entry a seat of the table: 0 or an exception */
static int check_seats(const int *seats, int count, int n, const char *what) {
    for (int i = 0; i < count; i++)
        if (seats[i] < 0 || seats[i] >= n) {
            PyErr_Format(PyExc_ValueError, "%s: no seat %d", what, seats[i]);
            return -1;
        }
    return 0;
}

static int Kernel_init(KernelObject *self, PyObject *args, PyObject *kwds) {
    int n, skip_next = 0, end_on_empty = 0, end_at_once = 0, advance_all = 0;
    int dealer_gives_wild = 0, floating = 0, any_order = 0, all_wild = 0, declare_deal = 0;
    int wilds = 8, skips = 4, save_pile = 0, saved_penalty = 0, give_up = 0, antis = 0;
    PyObject *phases;
    static char *kwlist[] = {"players",     "phases",      "skip_next",         "end_on_empty",
                             "end_at_once", "advance_all", "dealer_gives_wild", "floating",
                             "any_order",   "all_wild",    "declare_deal",      "wilds",
                             "skips",       "save_pile",   "saved_penalty",     "give_up",
                             "antis",       NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iO|pppppppppiiipip", kwlist, &n, &phases,
                                     &skip_next, &end_on_empty, &end_at_once, &advance_all,
                                     &dealer_gives_wild, &floating, &any_order, &all_wild,
                                     &declare_deal, &wilds, &skips, &save_pile, &saved_penalty,
                                     &give_up, &antis))
        return -1;
    if (n < 2 || n > MAXP) {
        PyErr_Format(PyExc_ValueError, "the kernel plays 2 to %d players, not %d", MAXP, n);
        return -1;
    }
    al_free(&self->al);
    Py_CLEAR(self->events);
    memset(&self->s, 0, sizeof(State));
    self->al_valid = 0;
    State *s = &self->s;
    s->n = n;
    s->skip_next = skip_next;
    s->end_on_empty = end_on_empty;
    s->end_at_once = end_at_once;
    s->advance_all = advance_all;
    s->dealer_gives_wild = dealer_gives_wild;
    s->floating_rule = floating;
    s->any_order = any_order;
    s->all_wild = all_wild;
    s->declare_deal = declare_deal;
    if (wilds < 0 || skips < 0 || 96 + wilds + skips + 1 > DECK) {
        PyErr_Format(PyExc_ValueError, "a deck of %d Wilds and %d Skips", wilds, skips);
        return -1;
    }
    s->wilds = wilds;
    s->skips = skips;
    if (save_pile < 0 || save_pile > 2) {
        PyErr_Format(PyExc_ValueError, "save_pile is 0 (off), 1 (private) or 2 (public), not %d",
                     save_pile);
        return -1;
    }
    s->save_pile = save_pile;
    s->saved_penalty = saved_penalty;
    if (give_up < 0 || give_up > 2) {
        PyErr_Format(PyExc_ValueError, "give_up is 0 (off), 1 (forfeit) or 2 (keep), not %d",
                     give_up);
        return -1;
    }
    s->give_up = give_up;
    s->antis = antis;
    PyObject *fast = PySequence_Fast(phases, "phases must be a sequence");
    if (!fast) return -1;
    Py_ssize_t np = PySequence_Fast_GET_SIZE(fast);
    if (np < 1 || np > MAXPH) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "1 to %d phases, not %zd", MAXPH, np);
        return -1;
    }
    s->nphases = (int)np;
    for (Py_ssize_t i = 0; i < np; i++) {
        PyObject *groups = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, i), "a phase");
        if (!groups) {
            Py_DECREF(fast);
            return -1;
        }
        PhaseSpec *ph = &s->phases[i];
        Py_ssize_t ng = PySequence_Fast_GET_SIZE(groups);
        if (ng < 1 || ng > MAXG) {
            Py_DECREF(groups);
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "a phase of 1 to %d groups, not %zd", MAXG, ng);
            return -1;
        }
        ph->ngroups = (int)ng;
        for (Py_ssize_t j = 0; j < ng; j++) {
            int kind, size;
            if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(groups, j), "ii", &kind, &size)) {
                Py_DECREF(groups);
                Py_DECREF(fast);
                return -1;
            }
            if (kind < 0 || kind >= NKINDS || size < 1 || size > 11) {
                Py_DECREF(groups);
                Py_DECREF(fast);
                PyErr_Format(PyExc_ValueError, "no group of kind %d and size %d", kind, size);
                return -1;
            }
            ph->kind[j] = kind;
            ph->size[j] = size;
        }
        Py_DECREF(groups);
        /* the slots by (kind, -size, index), as _slot_order sorts them */
        for (int j = 0; j < ph->ngroups; j++) {
            int k = j;
            while (k > 0) {
                int a = ph->order[k - 1];
                int worse = ph->kind[a] > ph->kind[j] ||
                            (ph->kind[a] == ph->kind[j] && ph->size[a] < ph->size[j]);
                if (!worse) break;
                ph->order[k] = a;
                k--;
            }
            ph->order[k] = j;
        }
    }
    Py_DECREF(fast);
    s->stage = ST_OVER; /* nothing to play until a state is loaded */
    return 0;
}

static void Kernel_dealloc(KernelObject *self) {
    al_free(&self->al);
    rl_track_free(&self->rl);
    Py_CLEAR(self->events);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *ints_tuple(const int *v, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(v[i]));
    return t;
}

static PyObject *cards_tuple(const uint8_t *v, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(v[i]));
    return t;
}

static PyObject *Kernel_dump(KernelObject *self, PyObject *Py_UNUSED(ignored)) {
    State *s = &self->s;
    PyObject *melds = PyTuple_New(s->n_melds);
    if (!melds) return NULL;
    for (int m = 0; m < s->n_melds; m++) {
        const Group *g = &s->melds[m];
        PyObject *item = wild_value(g) >= 0 ? Py_BuildValue("(iiNi)", s->meld_owner[m], g->kind,
                                                       cards_tuple(g->cards, g->len), wild_value(g))
                                       : Py_BuildValue("(iiN)", s->meld_owner[m], g->kind,
                                                       cards_tuple(g->cards, g->len));
        if (!item) {
            Py_DECREF(melds);
            return NULL;
        }
        PyTuple_SET_ITEM(melds, m, item);
    }
    PyObject *seats = PyTuple_New(s->n);
    if (!seats) {
        Py_DECREF(melds);
        return NULL;
    }
    for (int p = 0; p < s->n; p++) {
        const SeatS *info = &s->seats[p];
        PyObject *item = Py_BuildValue(
            "(NiikiOOiNOOO)", cards_tuple(info->hand, info->hand_len), info->score, info->phase,
            (unsigned long)info->completed, info->laid, info->pending_skip ? Py_True : Py_False,
            info->floating ? Py_True : Py_False, info->declared,
            cards_tuple(info->saved, info->saved_len), info->saved_this_hand ? Py_True : Py_False,
            info->gave_up ? Py_True : Py_False, info->refill ? Py_True : Py_False);
        if (!item) {
            Py_DECREF(melds);
            Py_DECREF(seats);
            return NULL;
        }
        PyTuple_SET_ITEM(seats, p, item);
    }
    PyObject *mt = PyTuple_New(625);
    if (!mt) {
        Py_DECREF(melds);
        Py_DECREF(seats);
        return NULL;
    }
    for (int i = 0; i < 624; i++) PyTuple_SET_ITEM(mt, i, PyLong_FromUnsignedLong(s->rng.mt[i]));
    PyTuple_SET_ITEM(mt, 624, PyLong_FromLong(s->rng.mti));
    return Py_BuildValue("(iiiiNONiNNNNNN)", s->hand_number, s->dealer, s->current, s->stage,
                         ints_tuple(s->in_hand, s->n_in_hand), s->tie_break ? Py_True : Py_False,
                         ints_tuple(s->winners, s->n_winners), s->first_player,
                         cards_tuple(s->draw, s->draw_len), cards_tuple(s->discard, s->discard_len),
                         melds, seats, mt, ints_tuple(s->queue, s->n_queue));
}

static PyObject *Kernel_load(KernelObject *self, PyObject *arg) {
    State t = self->s; /* filled in a copy: the kernel is unchanged if the state is refused */
    PyObject *in_hand_seq, *winners, *draw, *discard, *melds, *seats, *mt, *queue;
    int tie_break;
    if (!PyArg_ParseTuple(arg, "iiiiOpOiOOOOOO", &t.hand_number, &t.dealer, &t.current, &t.stage,
                          &in_hand_seq, &tie_break, &winners, &t.first_player, &draw, &discard, &melds,
                          &seats, &mt, &queue))
        return NULL;
    t.tie_break = tie_break;
    if (t.stage < ST_DRAW || t.stage > ST_DECLARE) return PyErr_Format(PyExc_ValueError, "no stage %d", t.stage);
    if (t.current < 0 || t.current >= t.n || t.dealer < 0 || t.dealer >= t.n)
        return PyErr_Format(PyExc_ValueError, "no seat %d", t.current);
    if ((t.n_in_hand = read_ints(in_hand_seq, t.in_hand, t.n, "players in hand")) < 0) return NULL;
    if ((t.n_winners = read_ints(winners, t.winners, t.n, "winners")) < 0) return NULL;
    if (check_seats(t.in_hand, t.n_in_hand, t.n, "players in hand") ||
        check_seats(t.winners, t.n_winners, t.n, "winners") ||
        check_seats(&t.first_player, 1, t.n, "the first player"))
        return NULL;
    if ((t.n_queue = read_ints(queue, t.queue, t.n, "the players to declare")) < 0 ||
        check_seats(t.queue, t.n_queue, t.n, "the players to declare"))
        return NULL;
    if (t.n_in_hand < 2 || !in_hand(&t, t.current))
        return PyErr_Format(PyExc_ValueError, "at least two players in the hand, the one to move among them");
    if ((t.draw_len = read_cards(draw, t.draw, DECK, "the draw pile")) < 0) return NULL;
    if ((t.discard_len = read_cards(discard, t.discard, DECK, "the discard pile")) < 0) return NULL;
    PyObject *fast = PySequence_Fast(melds, "the melds");
    if (!fast) return NULL;
    Py_ssize_t nm = PySequence_Fast_GET_SIZE(fast);
    if (nm > MAXMELD) {
        Py_DECREF(fast);
        return PyErr_Format(PyExc_ValueError, "at most %d groups on the table", MAXMELD);
    }
    t.n_melds = (int)nm;
    for (Py_ssize_t m = 0; m < nm; m++) {
        int owner, kind, value = 0;
        PyObject *cards;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, m), "iiO|i", &owner, &kind, &cards,
                              &value)) {
            Py_DECREF(fast);
            return NULL;
        }
        PyObject *pair = Py_BuildValue("(iOi)", kind, cards, value);
        int err = pair ? read_group(pair, &t.melds[m]) : -1;
        Py_XDECREF(pair);
        if (err) {
            Py_DECREF(fast);
            return NULL;
        }
        if (check_seats(&owner, 1, t.n, "a group's owner")) {
            Py_DECREF(fast);
            return NULL;
        }
        t.meld_owner[m] = owner;
    }
    Py_DECREF(fast);
    fast = PySequence_Fast(seats, "the seats");
    if (!fast) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != t.n) {
        Py_DECREF(fast);
        return PyErr_Format(PyExc_ValueError, "one seat per player (%d)", t.n);
    }
    for (int p = 0; p < t.n; p++) {
        SeatS *info = &t.seats[p];
        PyObject *hand;
        unsigned long completed;
        int pending, floating, saved_this_hand, gave_up, refill;
        PyObject *saved;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, p), "OiikippiOppp", &hand,
                              &info->score, &info->phase, &completed, &info->laid, &pending,
                              &floating, &info->declared, &saved, &saved_this_hand, &gave_up,
                              &refill)) {
            Py_DECREF(fast);
            return NULL;
        }
        if (info->phase < 0 || info->phase > t.nphases || info->laid < -1 ||
            info->laid >= t.nphases || completed >> t.nphases || info->declared < -1 ||
            info->declared >= t.nphases) {
            Py_DECREF(fast);
            return PyErr_Format(PyExc_ValueError, "player %d: phases out of range", p);
        }
        info->completed = (uint32_t)completed;
        info->pending_skip = pending;
        info->floating = floating;
        info->saved_this_hand = saved_this_hand;
        info->gave_up = gave_up;
        info->refill = refill;
        if ((info->saved_len = read_cards(saved, info->saved, DECK, "a save pile")) < 0) {
            Py_DECREF(fast);
            return NULL;
        }
        if ((info->hand_len = read_cards(hand, info->hand, MAXHAND, "a hand")) < 0) {
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    int words[625];
    int nw = read_ints(mt, words, 625, "the generator's state");
    if (nw < 0) return NULL;
    if (nw != 625) return PyErr_Format(PyExc_ValueError, "the generator's state is 625 numbers");
    /* the words are read as ints: the bits are what matter */
    for (int i = 0; i < 624; i++) t.rng.mt[i] = (uint32_t)words[i];
    t.rng.mti = words[624];
    self->s = t;
    self->al_valid = 0;
    self->rl.mask_valid = 0;
    Py_RETURN_NONE;
}

static PyObject *Kernel_legal(KernelObject *self, PyObject *Py_UNUSED(ignored)) {
    if (ensure_legal(self)) return NULL;
    PyObject *list = PyList_New(self->al.n);
    if (!list) return NULL;
    for (int i = 0; i < self->al.n; i++) {
        PyObject *t = act_to_tuple(&self->al.acts[i], &self->al);
        if (!t) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

/* apply the i-th legal action (the list is up to date); events: keep its events */
static int apply_legal(KernelObject *self, int i, int events) {
    Act a = self->al.acts[i];
    LayDown ld;
    if (a.type == A_LAY) {
        ld = self->al.lays[a.lay];
        a.lay = 0;
    }
    self->al_valid = 0;
    self->rl.mask_valid = 0;
    Py_CLEAR(self->events);
    if (events && !(self->events = PyList_New(0))) return -1;
    self->s.log = self->events;
    apply_act(&self->s, &a, &ld);
    int failed = events && self->s.log == NULL;
    self->s.log = NULL;
    return failed ? -1 : 0;
}

static PyObject *Kernel_apply_index(KernelObject *self, PyObject *arg) {
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (ensure_legal(self)) return NULL;
    if (i < 0 || i >= self->al.n)
        return PyErr_Format(PyExc_IndexError, "action %ld of %d legal actions", i, self->al.n);
    if (apply_legal(self, (int)i, 1)) return NULL;
    Py_RETURN_NONE;
}

/* apply an action given as a tuple, if it is among the legal ones (its index, or -1) */
static PyObject *Kernel_apply(KernelObject *self, PyObject *arg) {
    int type;
    if (!PyTuple_Check(arg) || PyTuple_GET_SIZE(arg) < 1)
        return PyErr_Format(PyExc_TypeError, "an action is a tuple (type, ...)");
    type = (int)PyLong_AsLong(PyTuple_GET_ITEM(arg, 0));
    if (type == -1 && PyErr_Occurred()) return NULL;
    if (ensure_legal(self)) return NULL;
    Act want = {type, 0, -1, 0, -1};
    LayDown ld;
    memset(&ld, 0, sizeof(ld));
    if (type == A_DISCARD && !PyArg_ParseTuple(arg, "iii", &type, &want.card, &want.arg))
        return NULL;
    if ((type == A_GIVE || type == A_DECLARE) && !PyArg_ParseTuple(arg, "ii", &type, &want.arg))
        return NULL;
    if ((type == A_SAVE || type == A_TAKE_SAVED) && !PyArg_ParseTuple(arg, "ii", &type, &want.card))
        return NULL;
    if (type == A_HIT && !PyArg_ParseTuple(arg, "iiii", &type, &want.card, &want.arg, &want.number))
        return NULL;
    if (type == A_LAY) {
        PyObject *groups;
        int named = 0, allowed[MAXPH], phase = -1;
        if (!PyArg_ParseTuple(arg, "iO|i", &type, &groups, &named)) return NULL;
        int k = allowed_phases(&self->s, self->s.current, allowed);
        for (int j = 0; j < k; j++)
            if (named ? allowed[j] == named - 1 : j == 0) phase = allowed[j];
        PyObject *fast = PySequence_Fast(groups, "a lay-down's groups");
        if (!fast) return NULL;
        Py_ssize_t ng = PySequence_Fast_GET_SIZE(fast);
        Group in[MAXG];
        ld.phase = (int8_t)named;
        if (phase < 0 || ng != self->s.phases[phase].ngroups) {
            Py_DECREF(fast);
            return PyErr_Format(PyExc_ValueError, "not a lay-down of the phase to play");
        }
        for (Py_ssize_t i = 0; i < ng; i++)
            if (read_group(PySequence_Fast_GET_ITEM(fast, i), &in[i])) {
                Py_DECREF(fast);
                return NULL;
            }
        Py_DECREF(fast);
        ld.ngroups = (uint8_t)ng;
        if (canonical(&self->s.phases[phase], in, ld.groups))
            return PyErr_Format(PyExc_ValueError, "these groups cannot fill the phase");
    }
    for (int i = 0; i < self->al.n; i++) {
        const Act *a = &self->al.acts[i];
        if (a->type != type) continue;
        if (type == A_DISCARD && (a->card != want.card || a->arg != want.arg)) continue;
        if ((type == A_GIVE || type == A_DECLARE) && a->arg != want.arg) continue;
        if ((type == A_SAVE || type == A_TAKE_SAVED) && a->card != want.card) continue;
        if (type == A_HIT && (a->card != want.card || a->arg != want.arg || a->number != want.number))
            continue;
        if (type == A_LAY && !lay_equal(&self->al.lays[a->lay], &ld)) continue;
        if (apply_legal(self, i, 1)) return NULL;
        return PyLong_FromLong(i);
    }
    return PyErr_Format(PyExc_ValueError, "not a legal action now");
}

static PyObject *Kernel_play_random(KernelObject *self, PyObject *args, PyObject *kwds) {
    unsigned long long seed;
    long long max_actions = -1;
    int record = 0;
    static char *kwlist[] = {"seed", "max_actions", "record", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "K|Lp", kwlist, &seed, &max_actions, &record))
        return NULL;
    PyObject *chosen = record ? PyList_New(0) : NULL;
    if (record && !chosen) return NULL;
    uint64_t x = seed;
    long long done = 0;
    while (self->s.stage != ST_OVER && (max_actions < 0 || done < max_actions)) {
        if (!self->al_valid) {
            if (legal(&self->s, &self->al)) {
                PyErr_NoMemory();
                break;
            }
            self->al_valid = 1;
        }
        if (self->al.n == 0) break;
        int i = (int)(splitmix(&x) % (uint64_t)self->al.n);
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
    if (record) return Py_BuildValue("(LN)", done, chosen);
    return Py_BuildValue("(LO)", done, Py_None);
}

/* determinizing and random play-outs (needs KernelObject, read_cards, ensure_legal) */
#include "kernel_playouts_api.h"

/* the greedy policy's methods (needs KernelObject, ensure_legal, apply_legal) */
#include "kernel_greedy_api.h"
#include "kernel_search.h"

static PyTypeObject KernelType;

static PyObject *Kernel_copy(KernelObject *self, PyObject *Py_UNUSED(ignored)) {
    KernelObject *twin = PyObject_New(KernelObject, &KernelType);
    if (!twin) return NULL;
    twin->s = self->s;
    twin->s.log = NULL;
    memset(&twin->al, 0, sizeof(ActList));
    twin->al_valid = 0;
    twin->events = NULL;
    if (rl_track_copy(&twin->rl, &self->rl)) {
        Py_DECREF(twin);
        return PyErr_NoMemory();
    }
    return (PyObject *)twin;
}

static PyObject *Kernel_events(KernelObject *self, PyObject *Py_UNUSED(ignored)) {
    if (!self->events) return PyList_New(0);
    return Py_NewRef(self->events);
}

static PyObject *Kernel_get_stage(KernelObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->s.stage);
}

static PyObject *Kernel_get_current(KernelObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->s.current);
}

static PyObject *Kernel_get_hand_events(KernelObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->s.hand_events);
}

/* the RLStepper type (needs KernelObject, KernelType, Kernel_apply) */
#include "kernel_rl_api.h"

static PyMethodDef Kernel_methods[] = {
    {"dump", (PyCFunction)Kernel_dump, METH_NOARGS, "The state as plain tuples."},
    {"load", (PyCFunction)Kernel_load, METH_O, "Replace the state (as dump gives it)."},
    {"legal", (PyCFunction)Kernel_legal, METH_NOARGS, "The legal actions as tuples."},
    {"apply", (PyCFunction)Kernel_apply, METH_O, "Apply a legal action given as a tuple."},
    {"apply_index", (PyCFunction)Kernel_apply_index, METH_O, "Apply the i-th legal action."},
    {"play_random", (PyCFunction)(void (*)(void))Kernel_play_random, METH_VARARGS | METH_KEYWORDS,
     "Play uniformly random legal actions; (actions played, the actions or None)."},
    {"greedy_action", (PyCFunction)Kernel_greedy_action, METH_O,
     "The greedy policy's action for the player to move, and its generator's new state."},
    {"set_knowledge", (PyCFunction)Kernel_set_knowledge, METH_VARARGS,
     "This hand's event count and the cards each seat is known to hold."},
    {"play_greedy", (PyCFunction)Kernel_play_greedy, METH_VARARGS,
     "Every seat greedy until the game ends (or max_actions)."},
    {"greedy_playouts", (PyCFunction)Kernel_greedy_playouts, METH_VARARGS,
     "Greedy play-outs from fresh determinizations."},
    {"missing", (PyCFunction)Kernel_missing, METH_VARARGS,
     "The cards a hand still needs for a phase of the game (the greedy policy's count)."},
    {"search", (PyCFunction)Kernel_search, METH_VARARGS,
     "Each candidate action played out greedily over the same determinized deals."},
    {"copy", (PyCFunction)Kernel_copy, METH_NOARGS, "An independent copy."},
    {"events", (PyCFunction)Kernel_events, METH_NOARGS, "The last applied action's events."},
    {"determinize", (PyCFunction)Kernel_determinize, METH_VARARGS,
     "Deal the cards the viewer cannot see afresh (viewer, known, seed)."},
    {"playouts", (PyCFunction)Kernel_playouts, METH_VARARGS,
     "Random play-outs from fresh determinizations: (winners, scores, actions) each."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Kernel_getset[] = {
    {"stage", (getter)Kernel_get_stage, NULL, "0 draw, 1 play, 2 game over", NULL},
    {"current", (getter)Kernel_get_current, NULL, "the seat to move", NULL},
    {"hand_events", (getter)Kernel_get_hand_events, NULL, "this hand's events so far", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "phase10.kernel._kernel.Kernel",
    .tp_basicsize = sizeof(KernelObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A game in the compiled kernel.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Kernel_init,
    .tp_dealloc = (destructor)Kernel_dealloc,
    .tp_methods = Kernel_methods,
    .tp_getset = Kernel_getset,
};

/* bound_steps(steps): the searches of this thread's next calls share ``steps`` steps (-1:
 * no bound); returns (whether the bound before ran out, the steps it counted) */
static PyObject *module_bound_steps(PyObject *Py_UNUSED(module), PyObject *arg) {
    long long steps = PyLong_AsLongLong(arg);
    if (steps == -1 && PyErr_Occurred()) return NULL;
    if (steps < -1) return PyErr_Format(PyExc_ValueError, "steps from 0 (or -1), not %lld", steps);
    PyObject *before = Py_BuildValue("(iL)", steps_spent, steps_taken);
    if (!before) return NULL;
    steps_bounded = steps >= 0;
    steps_left = steps;
    steps_spent = 0;
    steps_taken = 0;
    return before;
}

/* steps_spent(): whether this thread's bound has run out (the bound stays as it is) */
static PyObject *module_steps_spent(PyObject *Py_UNUSED(module), PyObject *Py_UNUSED(ignored)) {
    return PyBool_FromLong(steps_spent);
}

/* steps_taken(): the steps this thread's bound has counted so far (the bound stays) */
static PyObject *module_steps_taken(PyObject *Py_UNUSED(module), PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromLongLong(steps_taken);
}

static PyMethodDef module_methods[] = {
    {"bound_steps", (PyCFunction)module_bound_steps, METH_O,
     "Bound this thread's next searches to a number of steps; the last bound's (spent, taken)."},
    {"steps_spent", (PyCFunction)module_steps_spent, METH_NOARGS,
     "Whether this thread's bound has run out."},
    {"steps_taken", (PyCFunction)module_steps_taken, METH_NOARGS,
     "The steps this thread's bound has counted so far."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef kernel_module = {PyModuleDef_HEAD_INIT, "_kernel",
                                           "The compiled Phase 10 simulation kernel.", -1,
                                           module_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__kernel(void) {
    init_tables();
    if (PyType_Ready(&KernelType) < 0 || PyType_Ready(&StepperType) < 0) return NULL;
    PyObject *m = PyModule_Create(&kernel_module);
    if (!m) return NULL;
    Py_INCREF(&KernelType);
    if (PyModule_AddObject(m, "Kernel", (PyObject *)&KernelType) < 0) {
        Py_DECREF(&KernelType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&StepperType);
    if (PyModule_AddObject(m, "RLStepper", (PyObject *)&StepperType) < 0) {
        Py_DECREF(&StepperType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
