/* The state machine: turns, the hand's end, applying and listing actions, determinizing.
 * Part of _kernel.c, which includes it: the kernel is one compilation unit. */
#ifndef PHASE10_KERNEL_RULES_H
#define PHASE10_KERNEL_RULES_H

#include "kernel_laydowns.h"

/* ---------------------------------------------------------------- events */

/* The events, as tuples (convert.event_key writes the engine's the same way), are made
 * only when s->log is set: by Kernel.apply, which holds the GIL; play-outs never set it. */
#define E_HAND_STARTED 1
#define E_DEALT 2
#define E_WILD_GIVEN 3
#define E_RESHUFFLED 4
#define E_DREW 5
#define E_TOOK 6
#define E_LAID 7
#define E_HIT 8
#define E_DISCARDED 9
#define E_SKIPPED 10
#define E_FLOATING 11
#define E_WENT_OUT 12
#define E_HAND_ENDED 13
#define E_TIE_BREAK 14
#define E_GAME_ENDED 15
#define E_DECLARED 16
#define E_SAVED 17
#define E_TOOK_SAVED 18
#define E_GAVE_UP 19
#define E_REFILLED 20
#define E_MOVED_DOWN 21
/* why a hand ended (HandEnded.reason) */
#define R_WENT_OUT 0
#define R_LAST_PHASE 1
#define R_PILE_RAN_OUT 2
#define R_EXHAUSTED 3
#define R_DEAD 4
/* why the game ended (GameEnded.reason) */
#define G_AT_ONCE 0
#define G_TIE_BREAK 1
#define G_LAST_PHASE 2
#define G_LOWEST 3
#define G_ALL_LOWEST 4
#define G_ALL_MOST 5
#define G_SHARED 6

static PyObject *cards_tuple(const uint8_t *v, int n);
static PyObject *ints_tuple(const int *v, int n);
static PyObject *group_to_tuple(const Group *g);
static void log_event(State *s, PyObject *event);
#define EMIT(s, ...)                                                                           \
    do {                                                                                       \
        (s)->hand_events++;                                                                    \
        if ((s)->log) log_event((s), Py_BuildValue(__VA_ARGS__));                              \
    } while (0)

static PyObject *totals_tuple(const State *s) {
    int totals[MAXP];
    for (int p = 0; p < s->n; p++) totals[p] = s->seats[p].score;
    return ints_tuple(totals, s->n);
}

/* ---------------------------------------------------------------- the hand's end */

static void start_hand(State *s);

static int hand_points(const SeatS *seat) {
    int total = 0;
    for (int i = 0; i < seat->hand_len; i++) total += card_points(seat->hand[i]);
    return total;
}

static int lowest_open(const State *s, uint32_t completed) {
    for (int i = 0; i < s->nphases; i++)
        if (!((completed >> i) & 1u)) return i;
    return s->nphases;
}

static int popcount(uint32_t x) {
    int n = 0;
    while (x) {
        n += (int)(x & 1u);
        x >>= 1;
    }
    return n;
}

static void end_game(State *s, const int *winners, int n, int reason) {
    memcpy(s->winners, winners, sizeof(int) * (size_t)n);
    s->n_winners = n;
    s->stage = ST_OVER;
    EMIT(s, "(iNiN)", E_GAME_ENDED, ints_tuple(winners, n), reason, totals_tuple(s));
}

static void next_hand(State *s, const int *players, int n) {
    int copy[MAXP];
    memcpy(copy, players, sizeof(int) * (size_t)n);
    memcpy(s->in_hand, copy, sizeof(int) * (size_t)n);
    s->n_in_hand = n;
    s->dealer = (s->dealer + 1) % s->n;
    while (s->tie_break && !in_hand(s, s->dealer)) s->dealer = (s->dealer + 1) % s->n;
    start_hand(s);
}

/* Game._end_hand and Game._after_hand (official: advance "completed", no Anti-phase) */
/* the points a player scores at the hand's end: the hand, and the save pile as a penalty */
static int end_points(const State *s, int p, int went_out) {
    const SeatS *info = &s->seats[p];
    int points = p == went_out ? 0 : hand_points(info);
    if (s->saved_penalty)
        for (int i = 0; i < info->saved_len; i++) points += card_points(info->saved[i]);
    return points;
}

/* Game._move_down: the player the Anti-phase card named, and anyone still holding it, lose
 * their highest completed phase; returns how many moved (their seats in moved) */
static int move_down(State *s, int named, int went_out, int *moved) {
    int movers[MAXP + 1], by[MAXP + 1], k = 0;
    if (named >= 0) {
        movers[k] = named;
        by[k++] = went_out;
    }
    for (int i = 0; i < s->n_in_hand; i++) {
        const SeatS *info = &s->seats[s->in_hand[i]];
        for (int j = 0; j < info->hand_len; j++)
            if (info->hand[j] == ANTI) {
                movers[k] = s->in_hand[i];
                by[k++] = -1;
                break;
            }
    }
    for (int i = 0; i < k; i++) {
        SeatS *info = &s->seats[movers[i]];
        int lost = -1;
        for (int p = 0; p < s->nphases; p++)
            if ((info->completed >> p) & 1u) lost = p;
        if (lost >= 0) {
            info->completed &= ~(1u << lost);
            info->phase = lowest_open(s, info->completed);
        }
        EMIT(s, "(iiii)", E_MOVED_DOWN, movers[i], lost >= 0 ? lost + 1 : -1, by[i]);
        moved[i] = movers[i];
    }
    return k;
}

/* Game._end_hand and Game._after_hand; named: whom the Anti-phase card moves down, or -1 */
static void end_hand_won(State *s, int went_out, int winner, int reason, int named) {
    int points[MAXP], advanced[MAXP], na = 0, moved[MAXP + 1], nm = 0;
    for (int p = 0; p < s->n; p++) points[p] = in_hand(s, p) ? end_points(s, p, went_out) : -1;
    if (!s->tie_break) {
        for (int i = 0; i < s->n_in_hand; i++) {
            int p = s->in_hand[i];
            SeatS *info = &s->seats[p];
            info->score += points[p];
            if (info->laid >= 0) info->completed |= 1u << info->laid;
            if (s->advance_all) {
                info->phase++;
                advanced[na++] = p;
            } else if (info->laid >= 0 || (info->gave_up && s->give_up == 2)) {
                info->phase = lowest_open(s, info->completed);
                advanced[na++] = p;
            }
        }
        if (winner < 0) nm = move_down(s, named, went_out, moved);
    }
    if (s->log) { /* HandEnded */
        PyObject *held = PyTuple_New(s->n);
        int completed[MAXP], left[MAXP], totals[MAXP];
        for (int p = 0; p < s->n && held; p++) {
            PyObject *item = points[p] >= 0 ? PyLong_FromLong(points[p]) : Py_NewRef(Py_None);
            PyTuple_SET_ITEM(held, p, item);
            completed[p] = popcount(s->seats[p].completed);
            left[p] = s->seats[p].hand_len;
            totals[p] = s->seats[p].score;
        }
        EMIT(s, "(iiiiNNNNNN)", E_HAND_ENDED, s->hand_number, went_out, reason, held,
             ints_tuple(totals, s->n), ints_tuple(advanced, na), ints_tuple(completed, s->n),
             ints_tuple(left, s->n), ints_tuple(moved, nm));
    }
    if (winner >= 0) { /* end_when = "immediately" */
        end_game(s, &winner, 1, G_AT_ONCE);
        return;
    }
    if (s->tie_break) {
        if (went_out >= 0) {
            end_game(s, &went_out, 1, G_TIE_BREAK);
            return;
        }
        next_hand(s, s->in_hand, s->n_in_hand);
        return;
    }
    /* standings.decide */
    if (s->advance_all) {
        if (s->seats[s->in_hand[0]].phase < s->nphases) {
            next_hand(s, s->in_hand, s->n_in_hand);
            return;
        }
        int best = s->seats[s->in_hand[0]].score, most = -1, winners[MAXP], nw = 0;
        for (int i = 1; i < s->n_in_hand; i++)
            if (s->seats[s->in_hand[i]].score < best) best = s->seats[s->in_hand[i]].score;
        for (int i = 0; i < s->n_in_hand; i++) {
            const SeatS *info = &s->seats[s->in_hand[i]];
            if (info->score == best && popcount(info->completed) > most)
                most = popcount(info->completed);
        }
        for (int i = 0; i < s->n_in_hand; i++) {
            const SeatS *info = &s->seats[s->in_hand[i]];
            if (info->score == best && popcount(info->completed) == most)
                winners[nw++] = s->in_hand[i];
        }
        int low = 0;
        for (int i = 0; i < s->n_in_hand; i++) low += s->seats[s->in_hand[i]].score == best;
        end_game(s, winners, nw, nw != 1 ? G_SHARED : low == 1 ? G_ALL_LOWEST : G_ALL_MOST);
        return;
    }
    int finishers[MAXP], nf = 0;
    for (int i = 0; i < s->n_in_hand; i++) {
        int p = s->in_hand[i];
        if (popcount(s->seats[p].completed) >= s->nphases) finishers[nf++] = p;
    }
    if (nf == 0) {
        next_hand(s, s->in_hand, s->n_in_hand);
        return;
    }
    if (nf == 1) {
        end_game(s, finishers, 1, G_LAST_PHASE);
        return;
    }
    int best = s->seats[finishers[0]].score;
    for (int i = 1; i < nf; i++)
        if (s->seats[finishers[i]].score < best) best = s->seats[finishers[i]].score;
    int tied[MAXP], nt = 0;
    for (int i = 0; i < nf; i++)
        if (s->seats[finishers[i]].score == best) tied[nt++] = finishers[i];
    if (nt == 1) {
        end_game(s, tied, 1, G_LOWEST);
        return;
    }
    s->tie_break = 1;
    EMIT(s, "(iN)", E_TIE_BREAK, ints_tuple(tied, nt));
    next_hand(s, tied, nt);
}

static void end_hand(State *s, int went_out, int reason) {
    end_hand_won(s, went_out, -1, reason, -1);
}

/* Game.hand_is_dead */
static int hand_is_dead(const State *s) {
    for (int i = 0; i < s->n_in_hand; i++)
        if (s->seats[s->in_hand[i]].floating) return 0;
    int counts[NCARDS] = {0};
    for (int p = 0; p < s->n; p++) {
        for (int i = 0; i < s->seats[p].hand_len; i++) counts[s->seats[p].hand[i]]++;
        for (int i = 0; i < s->seats[p].saved_len; i++) counts[s->seats[p].saved[i]]++;
    }
    for (int i = 0; i < s->draw_len; i++) counts[s->draw[i]]++;
    for (int i = 0; i < s->discard_len; i++) counts[s->discard[i]]++;
    for (int c = 0; c < NCARDS; c++)
        if (counts[c] && fits_somewhere(s, c)) return 0;
    for (int i = 0; i < s->n_in_hand; i++) {
        int allowed[MAXPH], k = allowed_phases(s, s->in_hand[i], allowed);
        for (int j = 0; j < k; j++)
            if (can_lay(&s->phases[allowed[j]], counts, s->all_wild)) return 0;
    }
    return 1;
}

/* Game._begin_turn */
static void begin_turn(State *s) {
    while (s->seats[s->current].pending_skip) {
        s->seats[s->current].pending_skip = 0;
        EMIT(s, "(ii)", E_SKIPPED, s->current);
        s->current = next_in_hand(s, s->current);
    }
    if (s->draw_len == 0 && s->end_on_empty) {
        end_hand(s, -1, R_PILE_RAN_OUT);
        return;
    }
    if (!can_draw(s) && !can_take(s) && !s->seats[s->current].saved_len) {
        end_hand(s, -1, R_EXHAUSTED);
        return;
    }
    if (s->draw_len == 0 && hand_is_dead(s)) {
        end_hand(s, -1, R_DEAD);
        return;
    }
    s->stage = ST_DRAW;
}

/* Game._after_setup: the declarations if any, then the first turn */
static void after_setup(State *s) {
    int first = s->first_player;
    s->current = first;
    if (s->any_order && s->declare_deal && !s->tie_break) {
        int order[MAXP], k = turn_order_from(s, first, order);
        s->queue[0] = first;
        s->n_queue = 1;
        for (int i = 0; i < k; i++)
            if (order[i] != first) s->queue[s->n_queue++] = order[i];
        s->stage = ST_DECLARE;
        return;
    }
    begin_turn(s);
}

/* the cards in every save pile */
static int saved_total(const State *s) {
    int total = 0;
    for (int p = 0; p < s->n; p++) total += s->seats[p].saved_len;
    return total;
}

/* positions.save_pile_room: what a deal leaves of the deck (ten a player and the turned-up
   card), so that every hand can be dealt */
static int save_pile_room(const State *s) {
    return 96 + s->wilds + s->skips + s->antis - 10 * s->n - 1;
}

/* Game._start_hand (no arrangement, no save piles, the first player takes a Wild turned up) */
static void start_hand(State *s) {
    s->hand_number++;
    s->hand_events = 0; /* a hand's history starts with its HandStarted */
    memset(s->held, 0, sizeof(s->held));
    memset(s->held_on, 0, sizeof(s->held_on));
    for (int p = 0; p < s->n; p++) {
        SeatS *info = &s->seats[p];
        info->hand_len = 0;
        info->laid = -1;
        info->pending_skip = 0;
        info->floating = 0;
        info->declared = -1;
        info->saved_this_hand = 0;
        info->gave_up = 0;
        info->refill = 0;
    }
    s->n_melds = 0;
    s->n_queue = 0;
    /* full_deck's order, less the saved cards (they stay out of the deal) */
    int copies[NCARDS];
    for (int c = 0; c < 48; c++) copies[c] = 2;
    copies[WILD] = s->wilds;
    copies[SKIP] = s->skips;
    copies[ANTI] = s->antis;
    for (int p = 0; p < s->n; p++)
        for (int i = 0; i < s->seats[p].saved_len; i++) copies[s->seats[p].saved[i]]--;
    uint8_t deck[DECK];
    int len = 0;
    for (int c = 0; c < NCARDS; c++)
        for (int i = 0; i < copies[c]; i++) deck[len++] = (uint8_t)c;
    mt_shuffle(&s->rng, deck, len);
    int first = next_in_hand(s, s->dealer), order[MAXP];
    int k = turn_order_from(s, first, order); /* first comes last here: rotate it to the front */
    int deal[MAXP];
    deal[0] = first;
    for (int i = 0, j = 1; i < k; i++)
        if (order[i] != first) deal[j++] = order[i];
    for (int r = 0; r < 10; r++)
        for (int i = 0; i < k; i++) {
            SeatS *info = &s->seats[deal[i]];
            info->hand[info->hand_len++] = deck[--len];
        }
    s->discard[0] = deck[--len];
    s->discard_len = 1;
    memcpy(s->draw, deck, (size_t)len);
    s->draw_len = len;
    s->first_player = first;
    EMIT(s, "(iiiNiiO)", E_HAND_STARTED, s->hand_number, s->dealer,
         ints_tuple(s->in_hand, s->n_in_hand), first, s->discard[0],
         s->tie_break ? Py_True : Py_False);
    for (int i = 0; i < s->n_in_hand; i++) {
        const SeatS *info = &s->seats[s->in_hand[i]];
        EMIT(s, "(iiN)", E_DEALT, s->in_hand[i], cards_tuple(info->hand, info->hand_len));
    }
    if (s->discard[0] == SKIP) s->seats[first].pending_skip = 1;
    if (s->discard[0] == WILD && s->dealer_gives_wild) {
        s->current = s->dealer;
        s->stage = ST_GIVE_WILD;
        return;
    }
    after_setup(s);
}

/* Game._hand_emptied: out at once, or floating until a discard takes the last card */
static void hand_emptied(State *s, int seat) {
    if (s->floating_rule) {
        s->seats[seat].floating = 1;
        EMIT(s, "(ii)", E_FLOATING, seat);
        s->current = next_in_hand(s, s->current);
        begin_turn(s);
        return;
    }
    EMIT(s, "(ii)", E_WENT_OUT, seat);
    end_hand(s, seat, R_WENT_OUT);
}

/* ---------------------------------------------------------------- applying */

static void hand_remove(SeatS *info, int card) {
    for (int i = 0; i < info->hand_len; i++)
        if (info->hand[i] == card) {
            memmove(info->hand + i, info->hand + i + 1, (size_t)(info->hand_len - i - 1));
            info->hand_len--;
            return;
        }
}

/* Game._refill_draw_pile: an empty draw pile takes the discard pile but its top, shuffled */
static void refill_pile(State *s) {
    if (s->draw_len == 0 && s->discard_len >= 2) {
        uint8_t top = s->discard[s->discard_len - 1];
        memcpy(s->draw, s->discard, (size_t)(s->discard_len - 1));
        s->draw_len = s->discard_len - 1;
        mt_shuffle(&s->rng, s->draw, s->draw_len);
        s->discard[0] = top;
        s->discard_len = 1;
        EMIT(s, "(ii)", E_RESHUFFLED, s->draw_len);
    }
}

/* Game._end_turn: after a discard or a save that leaves cards in hand: any refill, then the
 * next turn */
static void end_turn(State *s, int seat) {
    SeatS *info = &s->seats[seat];
    if (info->refill) {
        uint8_t drawn[MAXHAND];
        int n = 0;
        info->refill = 0;
        while (info->hand_len < 10) {
            if (!s->end_on_empty) refill_pile(s);
            if (!s->draw_len) break;
            drawn[n++] = info->hand[info->hand_len++] = s->draw[--s->draw_len];
        }
        EMIT(s, "(iiiN)", E_REFILLED, seat, n, cards_tuple(drawn, n));
    }
    s->current = next_in_hand(s, s->current);
    begin_turn(s);
}

static void do_draw(State *s, int seat) {
    refill_pile(s);
    SeatS *info = &s->seats[seat];
    info->hand[info->hand_len++] = s->draw[--s->draw_len];
    EMIT(s, "(iii)", E_DREW, seat, info->hand[info->hand_len - 1]);
    s->stage = ST_PLAY;
}

static void do_discard(State *s, int seat, int card, int target) {
    SeatS *info = &s->seats[seat];
    hand_remove(info, card);
    s->discard[s->discard_len++] = (uint8_t)card;
    if (card == SKIP && target < 0 && s->skip_next) {
        int targets[MAXP];
        if (skip_targets(s, seat, targets)) target = targets[0];
    }
    if (target >= 0 && card == SKIP) s->seats[target].pending_skip = 1;
    EMIT(s, "(iiii)", E_DISCARDED, seat, card, card == SKIP || card == ANTI ? target : -1);
    if (s->stage == ST_WILD_DISCARD) {
        after_setup(s);
        return;
    }
    if (info->hand_len == 0) {
        EMIT(s, "(ii)", E_WENT_OUT, seat);
        end_hand_won(s, seat, -1, R_WENT_OUT, card == ANTI ? target : -1);
        return;
    }
    end_turn(s, seat);
}

static void do_hit(State *s, int seat, int card, int m, int number) {
    SeatS *info = &s->seats[seat];
    int named = number;
    hand_remove(info, card);
    Group *g = &s->melds[m];
    if (!is_run_kind(g->kind)) {
        g->cards[g->len++] = (uint8_t)card;
        sort_by_key(g->cards, g->len);
    } else {
        int spots[2], n = placements(g, card, spots);
        if (number <= 0) number = spots[0];
        (void)n;
        if (number < g->low) {
            memmove(g->cards + 1, g->cards, g->len);
            g->cards[0] = (uint8_t)card;
            g->low = (int8_t)number;
        } else {
            g->cards[g->len] = (uint8_t)card;
        }
        g->len++;
    }
    EMIT(s, "(iiiiiN)", E_HIT, seat, card, m, named > 0 ? named : 0, group_to_tuple(g));
    if (info->hand_len == 0) hand_emptied(s, seat);
}

static void do_lay(State *s, int seat, const LayDown *ld) {
    SeatS *info = &s->seats[seat];
    int allowed[MAXPH];
    allowed_phases(s, seat, allowed);
    int index = ld->phase ? ld->phase - 1 : allowed[0];
    for (int i = 0; i < ld->ngroups; i++) {
        const Group *g = &ld->groups[i];
        for (int j = 0; j < g->len; j++) hand_remove(info, g->cards[j]);
        s->melds[s->n_melds] = *g;
        s->meld_owner[s->n_melds++] = seat;
    }
    info->laid = index;
    if (s->log) {
        PyObject *groups = PyTuple_New(ld->ngroups);
        int ids[MAXG];
        for (int i = 0; groups && i < ld->ngroups; i++) {
            PyTuple_SET_ITEM(groups, i, group_to_tuple(&ld->groups[i]));
            ids[i] = s->n_melds - ld->ngroups + i;
        }
        EMIT(s, "(iiiNN)", E_LAID, seat, index + 1, groups, ints_tuple(ids, ld->ngroups));
    }
    if (s->end_at_once && !s->tie_break && !((info->completed >> index) & 1u)) {
        /* Game._wins_at_once: the only player in the hand on the last phase lays it down */
        int on_last = 0, me = 0;
        for (int i = 0; i < s->n_in_hand; i++) {
            int p = s->in_hand[i];
            if (popcount(s->seats[p].completed) == s->nphases - 1) {
                on_last++;
                me |= p == seat;
            }
        }
        if (on_last == 1 && me) {
            end_hand_won(s, -1, seat, R_LAST_PHASE, -1);
            return;
        }
    }
    if (info->hand_len == 0) hand_emptied(s, seat);
}

static void track_held(State *s, const Act *a, const LayDown *lays);

static void apply_act(State *s, const Act *a, const LayDown *lays) {
    int seat = s->current;
    track_held(s, a, lays);
    switch (a->type) {
    case A_DRAW:
        do_draw(s, seat);
        break;
    case A_TAKE: {
        SeatS *info = &s->seats[seat];
        info->hand[info->hand_len++] = s->discard[--s->discard_len];
        EMIT(s, "(iii)", E_TOOK, seat, info->hand[info->hand_len - 1]);
        s->stage = ST_PLAY;
        break;
    }
    case A_DISCARD:
        do_discard(s, seat, a->card, a->arg);
        break;
    case A_HIT:
        do_hit(s, seat, a->card, a->arg, a->number);
        break;
    case A_LAY:
        do_lay(s, seat, &lays[a->lay]);
        break;
    case A_GIVE: {
        SeatS *info = &s->seats[a->arg];
        info->hand[info->hand_len++] = s->discard[--s->discard_len];
        EMIT(s, "(iii)", E_WILD_GIVEN, s->dealer, a->arg);
        s->current = a->arg;
        s->stage = ST_WILD_DISCARD;
        break;
    }
    case A_TAKE_SAVED: {
        SeatS *info = &s->seats[seat];
        for (int i = 0; i < info->saved_len; i++)
            if (info->saved[i] == a->card) {
                memmove(info->saved + i, info->saved + i + 1, (size_t)(info->saved_len - i - 1));
                info->saved_len--;
                break;
            }
        info->hand[info->hand_len++] = (uint8_t)a->card;
        EMIT(s, "(iiiO)", E_TOOK_SAVED, seat, a->card, s->save_pile == 2 ? Py_True : Py_False);
        s->stage = ST_PLAY;
        break;
    }
    case A_SAVE: {
        SeatS *info = &s->seats[seat];
        hand_remove(info, a->card);
        info->saved[info->saved_len++] = (uint8_t)a->card;
        info->saved_this_hand = 1;
        EMIT(s, "(iiiO)", E_SAVED, seat, a->card, s->save_pile == 2 ? Py_True : Py_False);
        end_turn(s, seat);
        break;
    }
    case A_GIVE_UP: { /* Game._give_up: the groups go to the bottom of the discard pile */
        SeatS *info = &s->seats[seat];
        int ids[MAXMELD], nids = 0, kept = 0, moved = 0;
        uint8_t cards[DECK];
        for (int m = 0; m < s->n_melds; m++) {
            if (s->meld_owner[m] == seat) {
                ids[nids++] = m;
                memcpy(cards + moved, s->melds[m].cards, s->melds[m].len);
                moved += s->melds[m].len;
            } else {
                s->melds[kept] = s->melds[m];
                s->meld_owner[kept++] = s->meld_owner[m];
            }
        }
        s->n_melds = kept;
        memmove(s->discard + moved, s->discard, (size_t)s->discard_len);
        memcpy(s->discard, cards, (size_t)moved);
        s->discard_len += moved;
        int laid = info->laid;
        if (s->give_up == 2) {
            info->completed |= 1u << laid;
            info->phase = lowest_open(s, info->completed);
        }
        info->laid = -1;
        info->gave_up = info->refill = 1;
        EMIT(s, "(iiiNi)", E_GAVE_UP, seat, laid + 1, ints_tuple(ids, nids), moved);
        break;
    }
    case A_DECLARE: /* Game._declare */
        s->seats[seat].declared = a->arg - 1;
        EMIT(s, "(iii)", E_DECLARED, seat, a->arg);
        memmove(s->queue, s->queue + 1, sizeof(int) * (size_t)(s->n_queue - 1));
        if (--s->n_queue) {
            s->current = s->queue[0];
        } else {
            s->current = s->first_player;
            begin_turn(s);
        }
        break;
    }
}

/* ---------------------------------------------------------------- enumeration */

/* the order lay-downs are listed in: group by group, kind, size, then the cards' indices
 * (convert.lay_down_order) */
static int lay_cmp(const void *pa, const void *pb) {
    const LayDown *a = pa, *b = pb;
    if (a->phase != b->phase) return a->phase < b->phase ? -1 : 1;
    for (int i = 0; i < a->ngroups; i++) {
        const Group *x = &a->groups[i], *y = &b->groups[i];
        if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
        if (x->len != y->len) return x->len < y->len ? -1 : 1;
        int c = memcmp(x->cards, y->cards, x->len);
        if (c) return c;
        int vx = wild_value(x), vy = wild_value(y);
        if (vx != vy) return vx < vy ? -1 : 1;
    }
    return 0;
}

/* the card indices in sort-key order (filled once, when the module is loaded) */
static int by_key[NCARDS];

static void init_tables(void) {
    init_anchor_tables();
    for (int c = 0; c < NCARDS; c++) {
        int j = c;
        while (j > 0 && sort_key(by_key[j - 1]) > sort_key(c)) {
            by_key[j] = by_key[j - 1];
            j--;
        }
        by_key[j] = c;
    }
}

/* Rulebook._generate: lay-downs, hits, then discards, each card once in sort-key order */
static int legal(const State *s, ActList *al) {
    al->n = 0;
    if (al->nlays) memset(al->hashes, 0, sizeof(uint64_t) * (size_t)al->hcap);
    al->nlays = 0;
    Act a = {0, 0, -1, -1, -1};
    if (s->stage == ST_OVER) return 0;
    if (s->stage == ST_DECLARE) {
        a.type = A_DECLARE;
        for (int i = 0; i < s->nphases; i++)
            if (!((s->seats[s->current].completed >> i) & 1u)) {
                a.arg = i + 1;
                if (al_push(al, a)) return -1;
            }
        return 0;
    }
    if (s->stage == ST_GIVE_WILD) {
        a.type = A_GIVE;
        for (int i = 0; i < s->n_in_hand; i++) {
            a.arg = s->in_hand[i];
            if (al_push(al, a)) return -1;
        }
        return 0;
    }
    int seat = s->current;
    const SeatS *info = &s->seats[seat];
    if (s->stage == ST_DRAW) {
        /* a floating player takes a discard that fits the table, and draws one that does not */
        int top_fits = s->discard_len && fits_somewhere(s, s->discard[s->discard_len - 1]);
        if (can_draw(s) && !(info->floating && can_take(s) && top_fits)) {
            a.type = A_DRAW;
            if (al_push(al, a)) return -1;
        }
        if (can_take(s) && !(info->floating && !top_fits && can_draw(s))) {
            a.type = A_TAKE;
            if (al_push(al, a)) return -1;
        }
        if (s->save_pile && !(info->floating && can_take(s) && top_fits)) {
            int have[NCARDS] = {0};
            for (int i = 0; i < info->saved_len; i++) have[info->saved[i]] = 1;
            a.type = A_TAKE_SAVED;
            for (int i = 0; i < NCARDS; i++)
                if (have[by_key[i]]) {
                    a.card = by_key[i];
                    if (al_push(al, a)) return -1;
                }
        }
        return 0;
    }
    int counts[NCARDS] = {0}, bound = 0;
    for (int i = 0; i < info->hand_len; i++) {
        counts[info->hand[i]]++;
        bound |= info->floating && fits_somewhere(s, info->hand[i]);
    }
    int play = s->stage == ST_PLAY;
    int allowed[MAXPH], k = play && !bound && !info->refill ? allowed_phases(s, seat, allowed) : 0;
    for (int j = 0; j < k; j++) {
        const PhaseSpec *ph = &s->phases[allowed[j]];
        /* most hands hold no phase: the quick exact test spares them the search */
        if (can_lay(ph, counts, s->all_wild) &&
            lay_downs(ph, counts, al, names_phase(s) ? allowed[j] + 1 : 0, s->all_wild))
            return -1;
    }
    if (al->nlays) {
        qsort(al->lays, (size_t)al->nlays, sizeof(LayDown), lay_cmp);
        for (int i = 0; i < al->nlays; i++) {
            a.type = A_LAY;
            a.lay = i;
            if (al_push(al, a)) return -1;
        }
        a.lay = -1;
    }
    if (play && info->laid >= 0 && !info->refill)
        for (int i = 0; i < NCARDS; i++) {
            int c = by_key[i];
            if (!counts[c]) continue;
            for (int m = 0; m < s->n_melds; m++) {
                int spots[2], fits = placements(&s->melds[m], c, spots);
                for (int j = 0; j < fits; j++) {
                    a.type = A_HIT;
                    a.card = c;
                    a.arg = m;
                    a.number = c == WILD ? spots[j] : 0;
                    if (al_push(al, a)) return -1;
                }
            }
        }
    if (play && s->give_up && !s->tie_break && !info->gave_up && info->laid >= 0) {
        a.type = A_GIVE_UP;
        if (al_push(al, a)) return -1;
    }
    if (bound) return 0; /* a floating player hits every card that fits */
    a.number = -1;
    if (play && s->save_pile && !info->saved_this_hand && info->hand_len != 1 &&
        saved_total(s) < save_pile_room(s)) {
        a.type = A_SAVE; /* (past the floating check no save depends on the card) */
        for (int i = 0; i < NCARDS; i++)
            if (counts[by_key[i]] && by_key[i] != ANTI) {
                a.card = by_key[i];
                if (al_push(al, a)) return -1;
            }
    }
    for (int i = 0; i < NCARDS; i++) {
        int c = by_key[i];
        if (!counts[c]) continue;
        a.type = A_DISCARD;
        a.card = c;
        a.arg = -1;
        if (c == ANTI && play && info->hand_len == 1) {
            /* going out with it names who moves down: anyone else in the hand (nobody in a
             * tie-break hand) */
            int named = 0;
            for (int j = 0; j < s->n && !s->tie_break; j++)
                if (j != seat && in_hand(s, j)) {
                    a.arg = j;
                    named++;
                    if (al_push(al, a)) return -1;
                }
            if (named) continue;
            a.arg = -1;
        }
        if (c == SKIP && !s->skip_next) {
            int targets[MAXP], nt = skip_targets(s, seat, targets);
            for (int j = 0; j < nt; j++) {
                a.arg = targets[j];
                if (al_push(al, a)) return -1;
            }
            if (nt) continue;
            a.arg = -1;
        }
        if (al_push(al, a)) return -1;
    }
    return 0;
}

/* apply the i-th action of al, the list of s's legal actions */
static void apply_listed(State *s, const ActList *al, int i) {
    apply_act(s, &al->acts[i], al->lays);
}

#endif
