/* Determinized search: each candidate action of the player to move, played out greedily over
 * the same sampled deals (what the expert bot compares its choices by).
 * Part of _kernel.c, which includes it after the greedy API: the kernel is one compilation
 * unit. */
#ifndef PHASE10_KERNEL_SEARCH_H
#define PHASE10_KERNEL_SEARCH_H

/* the most times a deal is dealt again to agree with what the other seats showed */
#define MAX_REDEALS 64
/* the most passed-over discards per seat a deal is checked against (the latest) */
#define MAX_DECLINED 8
/* the most a card kind's weight may be (engine.SEARCH_MAX_WEIGHT) */
#define MAX_WEIGHT 1e6

/* What the other seats showed this hand: `settled`, a bit mask of the seats that ended a
 * turn since they could last have laid their phase; and the top discards each passed over
 * (drawing from the pile instead). */
typedef struct {
    int settled;
    int n[MAXP];
    int cards[MAXP][MAX_DECLINED];
} Evidence;

/* determinize, with the other seats' hidden cards drawn in proportion to weights: w[p][c] is
 * how much likelier seat p holds a card c than the pool's share says (has[p] 0: uniform).
 * Each seat's cards are drawn one by one without replacement; the rest go to the draw pile
 * shuffled (private save piles: uniformly, as determinize deals them). */
static void determinize_weighted(State *s, int viewer, int known[MAXP][NCARDS],
                                 const float w[MAXP][NCARDS], const int *has, uint64_t *x) {
    uint8_t pool[DECK + 8];
    int drawn[MAXP], len = gather_hidden(s, viewer, known, pool, drawn);
    for (int p = 0; p < s->n; p++) {
        SeatS *info = &s->seats[p];
        for (int i = 0; i < drawn[p]; i++) {
            int pick;
            if (has[p]) {
                double total = 0;
                for (int j = 0; j < len; j++) total += w[p][pool[j]];
                double u = (double)(splitmix(x) >> 11) * (1.0 / 9007199254740992.0) * total;
                for (pick = 0; pick < len - 1; pick++) {
                    u -= w[p][pool[pick]];
                    if (u < 0) break;
                }
            } else
                pick = (int)(splitmix(x) % (uint64_t)len);
            info->hand[info->hand_len++] = pool[pick];
            pool[pick] = pool[--len];
        }
        drawn[p] = 0;
    }
    deal_shuffled(s, viewer, pool, len, drawn, x);
}

/* the weights for determinize_weighted, per seat (None: uniform) */
static int read_weights(KernelObject *self, PyObject *seq, float w[MAXP][NCARDS], int *has) {
    memset(has, 0, sizeof(int) * MAXP);
    if (seq == Py_None) return 0;
    PyObject *fast = PySequence_Fast(seq, "weights: one sequence (or None) per player");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != self->s.n) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "weights: one per player (%d)", self->s.n);
        return -1;
    }
    for (int p = 0; p < self->s.n; p++) {
        PyObject *row = PySequence_Fast_GET_ITEM(fast, p);
        if (row == Py_None) continue;
        PyObject *r = PySequence_Fast(row, "weights: a weight per card kind");
        if (!r) break;
        if (PySequence_Fast_GET_SIZE(r) != NCARDS) {
            Py_DECREF(r);
            PyErr_Format(PyExc_ValueError, "weights: %d per player", NCARDS);
            break;
        }
        for (int c = 0; c < NCARDS; c++) {
            double v = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(r, c));
            if (v == -1.0 && PyErr_Occurred()) break;
            if (!(v > 0) || v > MAX_WEIGHT) {
                PyErr_Format(PyExc_ValueError, "weights: from above 0 to 1e6");
                break;
            }
            w[p][c] = (float)v;
        }
        Py_DECREF(r);
        if (PyErr_Occurred()) break;
        has[p] = 1;
    }
    Py_DECREF(fast);
    return PyErr_Occurred() ? -1 : 0;
}

/* whether a deal agrees with the evidence, as the greedy policy would have played: no
 * settled seat holds a phase it may lay (it would have laid it down), and no seat is
 * dealt a hand that a card it passed over would have brought closer to its phase */
static int deal_agrees(const State *s, const Evidence *ev) {
    for (int p = 0; p < s->n; p++) {
        if (!((ev->settled >> p) & 1) && !ev->n[p]) continue;
        int phases[MAXPH], k = allowed_phases(s, p, phases), counts[NCARDS];
        if (!k) continue;
        hand_counts(&s->seats[p], counts);
        if (((ev->settled >> p) & 1) && gap_now(s, phases, k, counts) == 0) return 0;
        for (int i = 0; i < ev->n[p]; i++)
            if (ev->cards[p][i] != WILD && greedy_wants(s, phases, k, counts, ev->cards[p][i]))
                return 0;
    }
    return 1;
}

/* the passed-over discards, per seat (the last MAX_DECLINED of each kept) */
static int read_declined(KernelObject *self, PyObject *seq, Evidence *ev) {
    memset(ev->n, 0, sizeof(ev->n));
    if (seq == Py_None) return 0;
    PyObject *fast = PySequence_Fast(seq, "declined: one sequence of cards per player");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != self->s.n) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "declined: one sequence of cards per player (%d)",
                     self->s.n);
        return -1;
    }
    for (int p = 0; p < self->s.n; p++) {
        uint8_t cards[DECK + 8];
        int n = read_cards(PySequence_Fast_GET_ITEM(fast, p), cards, DECK, "declined cards");
        if (n < 0) {
            Py_DECREF(fast);
            return -1;
        }
        int from = n > MAX_DECLINED ? n - MAX_DECLINED : 0;
        for (int i = from; i < n; i++) ev->cards[p][ev->n[p]++] = cards[i];
    }
    Py_DECREF(fast);
    return 0;
}

/* search(viewer, known, candidates, count, seed, hands=1, max_actions=20000, settled=0,
 * declined=None, redeal=True, weights=None; weights: see determinize_weighted): for each of
 * `count` determinizations (as greedy_playouts deals them,
 * dealt again up to MAX_REDEALS times until deal_agrees with the evidence; each seat's
 * generator seeded after; redeal False keeps the cards as they lie, for an oracle), each candidate (an index into legal()) applied to the same deal, then
 * every seat greedy for `hands` hands (0: to the game's end). Gives bytes of int32, laid
 * out [count][candidate][seat][3]: phases completed, score, and 1 if among the winners. */
static PyObject *Kernel_search(KernelObject *self, PyObject *args) {
    int viewer, count, hands = 1;
    PyObject *known, *cand_seq;
    unsigned long long seed;
    long long max_actions = 20000;
    int counts[MAXP][NCARDS];
    PyObject *declined = Py_None, *weights = Py_None;
    Evidence ev;
    float w[MAXP][NCARDS];
    int has[MAXP];
    int redeal = 1;
    ev.settled = 0;
    if (!PyArg_ParseTuple(args, "iOOiK|iLiOpO", &viewer, &known, &cand_seq, &count, &seed, &hands,
                          &max_actions, &ev.settled, &declined, &redeal, &weights))
        return NULL;
    if (read_known(self, viewer, known, counts) || read_declined(self, declined, &ev) ||
        read_weights(self, weights, w, has))
        return NULL;
    has[viewer] = 0;
    int weighted = 0;
    for (int p = 0; p < self->s.n; p++) weighted |= has[p];
    ev.settled &= ~(1 << viewer);
    ev.n[viewer] = 0;
    if (count < 0 || count > 1000000)
        return PyErr_Format(PyExc_ValueError, "a count of play-outs from 0 to 1000000, not %d",
                            count);
    if (self->s.stage == ST_OVER) return PyErr_Format(PyExc_ValueError, "the game is over");
    if (viewer != self->s.current)
        return PyErr_Format(PyExc_ValueError, "player %d is not the one to move", viewer);
    if (ensure_legal(self)) return NULL;
    int n_legal = self->al.n, cands[256];
    int nc = read_ints(cand_seq, cands, 256, "candidates");
    if (nc < 0) return NULL;
    if (nc == 0) return PyErr_Format(PyExc_ValueError, "no candidate actions to compare");
    for (int i = 0; i < nc; i++)
        if (cands[i] < 0 || cands[i] >= n_legal)
            return PyErr_Format(PyExc_ValueError, "candidate %d is not an index into the %d legal actions",
                                cands[i], n_legal);
    int n = self->s.n;
    Py_ssize_t cells = (Py_ssize_t)count * nc * n * 3;
    PyObject *out = PyBytes_FromStringAndSize(NULL, cells * (Py_ssize_t)sizeof(int32_t));
    if (!out) return NULL;
    int32_t *cell = (int32_t *)PyBytes_AS_STRING(out);
    State *deal = malloc(sizeof(State)), *play = malloc(sizeof(State));
    ActList al;
    memset(&al, 0, sizeof(al));
    int failed = !deal || !play;
    uint64_t x = seed;
    Py_BEGIN_ALLOW_THREADS;
    for (int i = 0; i < count && !failed && !steps_spent; i++) {
        MT rngs[MAXP];
        for (int tries = 0; tries < MAX_REDEALS; tries++) {
            *deal = self->s;
            deal->log = NULL;
            if (!redeal) break; /* the cards as they lie (an oracle's search) */
            if (weighted)
                determinize_weighted(deal, viewer, counts, w, has, &x);
            else
                determinize(deal, viewer, counts, &x);
            if (deal_agrees(deal, &ev)) break;
        }
        for (int p = 0; p < n; p++) mt_seed(&rngs[p], splitmix(&x));
        for (int c = 0; c < nc && !failed && !steps_spent; c++) {
            MT mine[MAXP];
            memcpy(mine, rngs, sizeof(MT) * (size_t)n); /* the same chances for every candidate */
            *play = *deal;
            /* the viewer's legal actions do not depend on the hidden cards: same list */
            if (legal(play, &al) || al.n != n_legal) {
                failed = !steps_spent; /* (spent steps list no lay-down: bound_steps says so) */
                break;
            }
            apply_listed(play, &al, cands[c]);
            play_greedy(play, &al, mine, max_actions, self->s.hand_number, hands);
            for (int p = 0; p < n; p++) {
                int won = 0;
                for (int w = 0; w < play->n_winners; w++) won |= play->winners[w] == p;
                *cell++ = bit_count(play->seats[p].completed);
                *cell++ = play->seats[p].score;
                *cell++ = won;
            }
        }
    }
    Py_END_ALLOW_THREADS;
    al_free(&al);
    free(deal);
    free(play);
    if (failed) {
        Py_DECREF(out);
        if (!deal || !play) return PyErr_NoMemory();
        return PyErr_Format(PyExc_RuntimeError, "a determinized deal changed the legal actions");
    }
    return out;
}

#endif
