/* Determinized search: each candidate action of the player to move, played out greedily over
 * the same sampled deals (what the expert bot compares its choices by).
 * Part of _kernel.c, which includes it after the greedy API: the kernel is one compilation
 * unit. */
#ifndef PHASE10_KERNEL_SEARCH_H
#define PHASE10_KERNEL_SEARCH_H

/* every seat greedy until `hands` hands have ended since hand `start` (0: the game's end) or
 * max_actions */
static void play_greedy_hands(State *s, ActList *al, MT *rngs, int start, int hands,
                              long long max_actions) {
    long long done = 0;
    while (s->stage != ST_OVER && (hands <= 0 || s->hand_number - start < hands) &&
           done < max_actions) {
        if (legal(s, al) || al->n == 0) break;
        Act a = al->acts[greedy_choose(s, al, &rngs[s->current])];
        LayDown ld;
        if (a.type == A_LAY) {
            ld = al->lays[a.lay];
            a.lay = 0;
        }
        apply_act(s, &a, &ld);
        done++;
    }
}

/* the most times a deal is dealt again to agree with what the settled seats showed */
#define MAX_REDEALS 64

/* whether a deal agrees with what the seats in the bit mask `settled` showed: none of them
 * holds a phase it may lay (having had a turn since, it would have laid it down) */
static int deal_agrees(const State *s, int settled) {
    for (int p = 0; p < s->n; p++) {
        if (!((settled >> p) & 1)) continue;
        int phases[MAXPH], k = allowed_phases(s, p, phases), counts[NCARDS];
        if (!k) continue;
        hand_counts(&s->seats[p], counts);
        if (gap_now(s, phases, k, counts) == 0) return 0;
    }
    return 1;
}

/* search(viewer, known, candidates, count, seed, hands=1, max_actions=20000, settled=0): for
 * each of `count` determinizations (as greedy_playouts deals them, dealt again up to
 * MAX_REDEALS times until deal_agrees with `settled`; each seat's generator seeded after), each candidate (an index into legal()) applied to the same deal, then
 * every seat greedy for `hands` hands (0: to the game's end). Gives bytes of int32, laid
 * out [count][candidate][seat][3]: phases completed, score, and 1 if among the winners. */
static PyObject *Kernel_search(KernelObject *self, PyObject *args) {
    int viewer, count, hands = 1;
    PyObject *known, *cand_seq;
    unsigned long long seed;
    long long max_actions = 20000;
    int counts[MAXP][NCARDS], settled = 0;
    if (!PyArg_ParseTuple(args, "iOOiK|iLi", &viewer, &known, &cand_seq, &count, &seed, &hands,
                          &max_actions, &settled))
        return NULL;
    if (read_known(self, viewer, known, counts)) return NULL;
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
    for (int i = 0; i < count && !failed; i++) {
        MT rngs[MAXP];
        for (int tries = 0; tries < MAX_REDEALS; tries++) {
            *deal = self->s;
            deal->log = NULL;
            determinize(deal, viewer, counts, &x);
            if (deal_agrees(deal, settled & ~(1 << viewer))) break;
        }
        for (int p = 0; p < n; p++) mt_seed(&rngs[p], splitmix(&x));
        for (int c = 0; c < nc && !failed; c++) {
            MT mine[MAXP];
            memcpy(mine, rngs, sizeof(MT) * (size_t)n); /* the same chances for every candidate */
            *play = *deal;
            /* the viewer's legal actions do not depend on the hidden cards: same list */
            if (legal(play, &al) || al.n != n_legal) {
                failed = 1;
                break;
            }
            Act a = al.acts[cands[c]];
            LayDown ld;
            if (a.type == A_LAY) {
                ld = al.lays[a.lay];
                a.lay = 0;
            }
            apply_act(play, &a, &ld);
            play_greedy_hands(play, &al, mine, self->s.hand_number, hands, max_actions);
            for (int p = 0; p < n; p++) {
                int won = 0;
                for (int w = 0; w < play->n_winners; w++) won |= play->winners[w] == p;
                *cell++ = __builtin_popcount(play->seats[p].completed);
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
