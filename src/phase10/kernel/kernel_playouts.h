/* Determinizing a position and random play-outs.
 * Part of _kernel.c, which includes it: the kernel is one compilation unit. */
#ifndef PHASE10_KERNEL_PLAYOUTS_H
#define PHASE10_KERNEL_PLAYOUTS_H

#include "kernel_rules.h"

/* ---------------------------------------------------------------- determinizing */

/* Take the cards the viewer cannot see out of the state into pool: every other player's hand
 * but its known[p] cards (drawn[p]: how many each gave up), private save piles, then the
 * draw pile. Their number. */
static int gather_hidden(State *s, int viewer, int known[MAXP][NCARDS], uint8_t *pool,
                         int *drawn) {
    int len = 0;
    for (int p = 0; p < s->n; p++) {
        drawn[p] = 0;
        if (p == viewer) continue;
        SeatS *info = &s->seats[p];
        int left[NCARDS], kept = 0;
        memcpy(left, known[p], sizeof(left));
        for (int i = 0; i < info->hand_len; i++) {
            int c = info->hand[i];
            if (left[c] > 0) {
                left[c]--;
                info->hand[kept++] = (uint8_t)c;
            } else
                pool[len++] = (uint8_t)c;
        }
        drawn[p] = info->hand_len - kept;
        info->hand_len = kept;
        if (s->save_pile == 1) { /* a private save pile: only its size is known */
            memcpy(pool + len, info->saved, (size_t)info->saved_len);
            len += info->saved_len;
        }
    }
    memcpy(pool + len, s->draw, (size_t)s->draw_len);
    return len + s->draw_len;
}

/* The pool (gather_hidden's) shuffled by x and dealt back: drawn[p] cards to each hand,
 * private save piles refilled, the rest the draw pile; the game's generator seeded anew. */
static void deal_shuffled(State *s, int viewer, uint8_t *pool, int len, const int *drawn,
                          uint64_t *x) {
    for (int i = len - 1; i >= 1; i--) {
        int j = (int)(splitmix(x) % (uint64_t)(i + 1));
        uint8_t t = pool[i];
        pool[i] = pool[j];
        pool[j] = t;
    }
    int pos = 0;
    for (int p = 0; p < s->n; p++) {
        SeatS *info = &s->seats[p];
        for (int i = 0; i < drawn[p]; i++) info->hand[info->hand_len++] = pool[pos++];
        if (s->save_pile == 1 && p != viewer)
            for (int i = 0; i < info->saved_len; i++) info->saved[i] = pool[pos++];
    }
    s->draw_len = len - pos;
    memcpy(s->draw, pool + pos, (size_t)s->draw_len);
    mt_seed(&s->rng, splitmix(x));
}

/* Deal the cards the viewer cannot see afresh: every other player's hand but the cards
 * known[p] says they are known to hold, and the draw pile, shuffled together (by x) and
 * dealt back in the same numbers; the game's generator is seeded anew from x, since the
 * viewer cannot know it either. */
static void determinize(State *s, int viewer, int known[MAXP][NCARDS], uint64_t *x) {
    uint8_t pool[DECK + 8];
    int drawn[MAXP], len = gather_hidden(s, viewer, known, pool, drawn);
    deal_shuffled(s, viewer, pool, len, drawn, x);
}

/* uniformly random legal actions until the game ends or max_actions (-1: no limit) */
static long long play_random(State *s, ActList *al, uint64_t *x, long long max_actions) {
    long long done = 0;
    while (s->stage != ST_OVER && (max_actions < 0 || done < max_actions) && !steps_spent) {
        if (legal(s, al) || al->n == 0) break;
        int i = (int)(splitmix(x) % (uint64_t)al->n);
        apply_listed(s, al, i);
        done++;
    }
    return done;
}

#endif
