/* The greedy policy: phase10.bots.greedy.GreedyPlayer, decision for decision.
 * Part of _kernel.c, which includes it: the kernel is one compilation unit.
 *
 * Each helper names the Python function it mirrors; docs/kernel.md ("The greedy policy")
 * states the rule. The rules it plays are checked in Python (greedy_unsupported in
 * phase10/kernel/greedy.py). Save piles, giving up and the Anti-phase card are in
 * kernel_greedy_masters.h. */
#ifndef PHASE10_KERNEL_GREEDY_H
#define PHASE10_KERNEL_GREEDY_H

#include "kernel_playouts.h"

/* STALLED_EVENTS of phase10.bots.knowledge */
#define STALLED_EVENTS 1000

/* HeldTracker.feed, for the events of one action (called before it is applied) */
static void track_held(State *s, const Act *a, const LayDown *lays) {
    int seat = s->current;
    int16_t *held = s->held[seat];
    switch (a->type) {
    case A_TAKE:
        if (s->discard_len) held[s->discard[s->discard_len - 1]]++;
        s->held_on[seat] = 1;
        break;
    case A_DISCARD:
    case A_HIT:
        if (s->held_on[seat]) held[a->card]--;
        break;
    case A_LAY:
        if (s->held_on[seat]) {
            const LayDown *ld = &lays[a->lay];
            for (int g = 0; g < ld->ngroups; g++)
                for (int i = 0; i < ld->groups[g].len; i++) held[ld->groups[g].cards[i]]--;
        }
        break;
    case A_SAVE:
        if (s->held_on[seat] && s->save_pile == 2) {
            held[a->card]--;
        } else if (s->held_on[seat]) { /* a card saved unseen: what was known may be gone */
            memset(held, 0, sizeof(s->held[seat]));
            s->held_on[seat] = 0;
        }
        break;
    case A_TAKE_SAVED:
        if (s->save_pile == 2) {
            held[a->card]++;
            s->held_on[seat] = 1;
        }
        break;
    default:
        break;
    }
}

/* ---------------------------------------------------------------- missing */


static int phase_total(const PhaseSpec *ph) {
    int t = 0;
    for (int g = 0; g < ph->ngroups; g++) t += ph->size[g];
    return t;
}

/* wilds_needed, from the numbered cards alone: the fewest Wilds that make the phase with
 * them, up to limit (limit + 1 past it; IMPOSSIBLE_W when no number of Wilds will do).
 * start: a number of Wilds known to fall short (or 0): fewer numbered cards never need
 * fewer Wilds, so a hand less one card starts from the whole hand's answer. */
#define IMPOSSIBLE_W 1000
static int naturals(const int *counts);

/* wilds_needed_from for the phases can_lay tests in general: the same answers from one
 * search for the most cards placed, where trying each number of Wilds searches once each */
static int wilds_needed_general(const PhaseSpec *ph, const int *counts, int limit, int start,
                                int aw) {
    int total = phase_total(ph);
    if (start > total) return IMPOSSIBLE_W;
    /* placing floor cards or fewer needs more than limit Wilds */
    int floor = total - limit - 1 < -1 ? -1 : total - limit - 1;
    int best = naturals(counts) > 0 ? general_best_flow(ph, counts, aw, floor) : floor;
    if (best > floor) {
        int need = total - best > start ? total - best : start;
        return need <= limit ? need : limit + 1;
    }
    return limit < total ? limit + 1 : IMPOSSIBLE_W;
}

static int wilds_needed_from(const PhaseSpec *ph, int *counts, int limit, int start, int aw) {
    if (general_phase(ph)) return wilds_needed_general(ph, counts, limit, start, aw);
    int had = counts[WILD], total = phase_total(ph), found = IMPOSSIBLE_W;

    for (int w = start; w <= total; w++) {
        if (w > limit) {
            found = limit + 1;
            break;
        }
        counts[WILD] = w;
        if (can_lay(ph, counts, aw)) {
            found = w;
            break;
        }
    }
    counts[WILD] = had;
    /* past the phase's size no number of Wilds helps: too few numbered cards */
    return found;
}

static int wilds_needed(const PhaseSpec *ph, int *counts, int limit, int aw) {
    return wilds_needed_from(ph, counts, limit, 0, aw);
}

static int naturals(const int *counts) {
    int k = 0;
    for (int c = 0; c < 48; c++) k += counts[c];
    return k;
}

/* feasibility.missing: the cards the hand still needs (start: as for wilds_needed_from;
 * aw: natural_min = "phase") */
static int missing_from(const PhaseSpec *ph, const int *hand, int limit, int start, int aw) {
    int counts[NCARDS];
    memcpy(counts, hand, sizeof(counts));
    int wilds = counts[WILD];
    int need = wilds_needed_from(ph, counts, limit + wilds, start, aw);
    /* too few numbered cards for the natural-card rule: past the bound, ask again unbounded
     * (no number of Wilds may do) */
    if (need > limit + wilds && need < IMPOSSIBLE_W && naturals(counts) < (aw ? 1 : ph->ngroups))
        need = wilds_needed_from(ph, counts, IMPOSSIBLE_W, start, aw);
    if (need < IMPOSSIBLE_W) {
        int m = need - wilds > 0 ? need - wilds : 0;
        return m < limit + 1 ? m : limit + 1;
    }
    /* Too few numbered cards: add the most useful numbered card, one at a time. */
    int total = phase_total(ph), added = 0;
    while (need >= IMPOSSIBLE_W && added < total) {
        int best = 0;
        added++;
        need = IMPOSSIBLE_W;
        if (!aw && naturals(counts) + 1 < ph->ngroups) {
            counts[best]++;
            continue;
        }
        for (int c = 0; c < 48; c++) {
            counts[c]++;
            int option = wilds_needed(ph, counts, need < IMPOSSIBLE_W ? need : total, aw);
            counts[c]--;
            if (option < need) {
                need = option;
                best = c;
            }
        }
        counts[best]++;
    }
    int m = added + (need - wilds > 0 ? need - wilds : 0);
    return m < limit + 1 ? m : limit + 1;
}

static int missing(const PhaseSpec *ph, const int *hand, int limit, int aw) {
    return missing_from(ph, hand, limit, 0, aw);
}

static void hand_counts(const SeatS *info, int *counts) {
    memset(counts, 0, sizeof(int) * NCARDS);
    for (int i = 0; i < info->hand_len; i++) counts[info->hand[i]]++;
}

/* the smallest missing over the phases the player may lay now (0 if none) */
static int gap_now(const State *s, const int *phases, int k, const int *counts) {
    int best = -1;
    for (int j = 0; j < k; j++) {
        int m = missing(&s->phases[phases[j]], counts, IMPOSSIBLE_W, s->all_wild);
        if (best < 0 || m < best) best = m;
    }
    return best < 0 ? 0 : best;
}

/* ---------------------------------------------------------------- best hits */

/* tactics._HitSearch, returning the best plan's (count, points) and its first hit */
typedef struct {
    const Group *melds; /* the table's groups (and any about to be laid) */
    int runs[MAXMELD], nruns, others[MAXMELD], nothers;
    uint8_t colors[MAXMELD]; /* per run slot: bit c the colours that matter from it on */
    uint8_t order[NCARDS];   /* the hand's cards in the order they first appear */
    int norder;
} HitSearch;

typedef struct {
    int count, points, card, meld, number; /* card -1: no hit */
} Plan;

static int plan_better(const Plan *a, const Plan *b) {
    return a->count != b->count ? a->count > b->count : a->points > b->points;
}

static Plan hits_finish(const HitSearch *H, const int *left) {
    Plan p = {0, 0, -1, -1, 0};
    int spots[2];
    for (int c = 0; c < NCARDS; c++) {
        if (!left[c]) continue;
        for (int j = 0; j < H->nothers; j++)
            if (placements(&H->melds[H->others[j]], c, spots)) {
                if (p.card < 0) {
                    p.card = c;
                    p.meld = H->others[j];
                    p.number = 0;
                }
                p.count += left[c];
                p.points += left[c] * card_points(c);
                break;
            }
    }
    return p;
}

static Plan hits_search(const HitSearch *H, int slot, int *left, int low, int high) {
    if (slot == H->nruns) return hits_finish(H, left);
    const Group *g = &H->melds[H->runs[slot]];
    if (low < 0) {
        low = g->low;
        high = g->low + g->len - 1;
    }
    Plan best = hits_search(H, slot + 1, left, -1, -1);
    /* _kind_of: one card per number (and colour where a colour matters), the last seen */
    int kinds[NCARDS], cards[NCARDS], nk = 0;
    for (int i = 0; i < H->norder; i++) {
        int c = H->order[i];
        if (!left[c]) continue;
        int kind = c >= 48 ? 100 + c
                           : card_number(c) * 8 +
                                 (((H->colors[slot] >> card_color(c)) & 1) ? card_color(c) + 1 : 0);
        int j = 0;
        while (j < nk && kinds[j] != kind) j++;
        if (j == nk) kinds[nk++] = kind;
        cards[j] = c;
    }
    for (int j = 0; j < nk; j++) {
        int c = cards[j];
        if (c == SKIP || c == ANTI) continue;
        if (c < 48 && g->color >= 0 && card_color(c) != g->color) continue;
        int spots[2] = {low - 1, high + 1};
        for (int k = 0; k < 2; k++) {
            int number = spots[k];
            if (number < 1 || number > 12) continue;
            if (c < 48 && number != card_number(c)) continue;
            left[c]--;
            Plan sub = hits_search(H, slot, left, number < low ? number : low,
                                   number > high ? number : high);
            left[c]++;
            Plan mine = {sub.count + 1, sub.points + card_points(c), c, H->runs[slot],
                         c == WILD ? number : 0};
            if (plan_better(&mine, &best)) best = mine;
        }
    }
    return best;
}

/* tactics.best_hits over the groups melds[0..n_melds) for the cards hand[0..hand_len) */
static Plan best_hits_on(const Group *melds, int n_melds, const uint8_t *hand, int hand_len) {
    HitSearch H;
    int left[NCARDS];
    memset(&H, 0, sizeof(H));
    memset(left, 0, sizeof(left));
    H.melds = melds;
    for (int m = 0; m < n_melds; m++) {
        if (is_run_kind(melds[m].kind))
            H.runs[H.nruns++] = m;
        else
            H.others[H.nothers++] = m;
    }
    uint8_t colors = 0;
    for (int j = 0; j < H.nothers; j++) {
        const Group *g = &melds[H.others[j]];
        if (g->color >= 0) colors |= (uint8_t)(1u << g->color);
    }
    for (int slot = H.nruns - 1; slot >= 0; slot--) {
        const Group *g = &melds[H.runs[slot]];
        if (g->color >= 0) colors |= (uint8_t)(1u << g->color);
        H.colors[slot] = colors;
    }
    for (int i = 0; i < hand_len; i++) {
        int c = hand[i];
        if (!left[c]++) H.order[H.norder++] = (uint8_t)c;
    }
    return hits_search(&H, 0, left, -1, -1);
}

/* tactics.best_hits: the first hit of the plan shedding the most cards, then points */
static Plan best_hits(const State *s, const SeatS *info) {
    return best_hits_on(s->melds, s->n_melds, info->hand, info->hand_len);
}

/* ---------------------------------------------------------------- lay-downs */

/* the text best_lay_down breaks ties by: " + ".join(group.describe() ...) */
static int lay_text(const LayDown *ld, char *out, int cap) {
    static const char LETTER[4] = {'R', 'B', 'G', 'Y'};
    int n = 0;
    for (int g = 0; g < ld->ngroups && n < cap - 40; g++) {
        const Group *gr = &ld->groups[g];
        if (g) n += snprintf(out + n, (size_t)(cap - n), " + ");
        for (int i = 0; i < gr->len && n < cap - 20; i++) {
            int c = gr->cards[i];
            if (i) out[n++] = ' ';
            if (c < 48) {
                n += snprintf(out + n, (size_t)(cap - n), "%c%d", LETTER[card_color(c)], card_number(c));
                continue;
            }
            if (c != WILD) {
                out[n++] = c == SKIP ? 'S' : 'A';
                continue;
            }
            n += snprintf(out + n, (size_t)(cap - n), "W=");
            if (gr->color >= 0) out[n++] = LETTER[gr->color];
            int number = is_run_kind(gr->kind) ? gr->low + i : gr->kind == K_SET ? gr->number : 0;
            if (number > 0)
                n += snprintf(out + n, (size_t)(cap - n), "%d", number);
            else if (gr->parity >= 0)
                n += snprintf(out + n, (size_t)(cap - n), "%s", gr->parity ? "odd" : "even");
        }
    }
    out[n] = 0;
    return n;
}

/* best_lay_down's order: whether lay-down x beats y, the most cards, then the most points,
 * then the first in text order */
static int lay_better(const LayDown *x, const LayDown *y) {
    int laid[2] = {0, 0}, points[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        const LayDown *ld = k ? y : x;
        for (int g = 0; g < ld->ngroups; g++)
            for (int j = 0; j < ld->groups[g].len; j++) {
                laid[k]++;
                points[k] += card_points(ld->groups[g].cards[j]);
            }
    }
    if (laid[0] != laid[1]) return laid[0] > laid[1];
    if (points[0] != points[1]) return points[0] > points[1];
    char tx[1024], ty[1024]; /* a tie: the text decides */
    lay_text(x, tx, (int)sizeof(tx));
    lay_text(y, ty, (int)sizeof(ty));
    return strcmp(tx, ty) < 0;
}

/* lay_better for the lay-downs of actions a and b of al */
static int lay_beats(const ActList *al, int a, int b) {
    return lay_better(&al->lays[al->acts[a].lay], &al->lays[al->acts[b].lay]);
}

static int lay_cards(const ActList *al, int i);
static int keep_one_lay(const ActList *al, int hand_len);

/* GreedyPlayer.lay_down: each phase's best_lay_down, then of those the one keeping a card
 * when going out needs one (keep_one), the most cards, the later phase; -1 if none */
static int greedy_lay(const ActList *al, int keep_one, int hand_len) {
    int best[MAXPH];
    for (int p = 0; p < MAXPH; p++) best[p] = -1;
    for (int i = 0; i < al->n; i++) {
        if (al->acts[i].type != A_LAY) continue;
        /* a lay-down names its phase where several may be laid: else there is one */
        int p = al->lays[al->acts[i].lay].phase;
        p = p > 0 ? p - 1 : 0;
        if (best[p] < 0 || lay_beats(al, i, best[p])) best[p] = i;
    }
    int chosen = -1, chosen_key = -1;
    for (int p = 0; p < MAXPH; p++) {
        if (best[p] < 0) continue;
        int laid = lay_cards(al, best[p]);
        int key = (!(keep_one && laid == hand_len) * 100 + laid) * MAXPH + p;
        if (key > chosen_key) {
            chosen = best[p];
            chosen_key = key;
        }
    }
    if (chosen >= 0 && keep_one && lay_cards(al, chosen) == hand_len)
        return keep_one_lay(al, hand_len); /* every card would go down */
    return chosen;
}

/* the cards lay-down i of al lays */
static int lay_cards(const ActList *al, int i) {
    const LayDown *ld = &al->lays[al->acts[i].lay];
    int n = 0;
    for (int g = 0; g < ld->ngroups; g++) n += ld->groups[g].len;
    return n;
}

/* GreedyPlayer.lay_down when every card would go down and one must be kept: the legal
 * lay-down keeping a card, the most cards, first in the engine's list (else the first) */
static int keep_one_lay(const ActList *al, int hand_len) {
    int best = -1, best_key = -1;
    for (int i = 0; i < al->n; i++) {
        if (al->acts[i].type != A_LAY) continue;
        int n = lay_cards(al, i), key = (n != hand_len) * 1000 + n;
        if (key > best_key ||
            (key == best_key && al->lays[al->acts[i].lay].found < al->lays[al->acts[best].lay].found)) {
            best = i;
            best_key = key;
        }
    }
    return best;
}

/* ---------------------------------------------------------------- knowledge */

/* knowledge.next_player: who plays after seat this hand, passing over a pending Skip */
static int next_player(const State *s, int seat) {
    int at = -1;
    for (int i = 0; i < s->n_in_hand; i++)
        if (s->in_hand[i] == seat) at = i;
    if (at < 0 || s->n_in_hand < 2) return -1;
    for (int step = 1; step < s->n_in_hand; step++) {
        int p = s->in_hand[(at + step) % s->n_in_hand];
        if (!s->seats[p].pending_skip) return p;
    }
    return -1;
}

/* knowledge.danger: how much discarding card may help the next player */
static int danger(const State *s, int card, int after) {
    if (after < 0 || card == SKIP) return 0;
    if (card == WILD) return 3;
    if (s->seats[after].laid >= 0) return fits_somewhere(s, card) ? 2 : 0;
    if (card >= 48 || !s->held_on[after]) return 0;
    int score = 0, number = card_number(card);
    for (int c = 0; c < 48; c++) {
        if (s->held[after][c] <= 0) continue;
        int d = card_number(c) - number;
        if (d == 0) score = 2;
        else if ((d == 1 || d == -1) && score < 1) score = 1;
    }
    return score;
}

/* knowledge.leader_key, as one number that orders alike */
static long long leader_key(const State *s, int seat) {
    const SeatS *info = &s->seats[seat];
    int laid = info->laid >= 0;
    return ((long long)(popcount(info->completed) + laid) * 2 + laid) * 1000000000LL +
           (long long)(1000 - info->hand_len) * 1000000LL + (999999LL - info->score);
}

/* random.Random.random() as its 53 bits */
static uint64_t mt_random53(MT *m) {
    uint64_t a = mt_next(m) >> 5, b = mt_next(m) >> 6;
    return a * 67108864u + b;
}

/* ---------------------------------------------------------------- decisions */

static int find_act(const ActList *al, int type, int card, int arg, int number) {
    for (int i = 0; i < al->n; i++) {
        const Act *a = &al->acts[i];
        if (a->type != type) continue;
        if ((type == A_DISCARD || type == A_HIT) && (a->card != card || a->arg != arg)) continue;
        if ((type == A_SAVE || type == A_TAKE_SAVED) && a->card != card) continue;
        if (type == A_HIT && a->number != number) continue;
        if (type == A_GIVE && a->arg != arg) continue;
        return i;
    }
    return -1;
}

/* _legal_or: the action if legal, else the first legal one */
static int legal_or(int i) { return i >= 0 ? i : 0; }

/* _Partners: the hand's counts for partner_score, made once per decision */
typedef struct {
    int sets, runs, colors, parities;
    int numbers[15], by_color[4], by_parity[2];
} Partners;

static void partners_of(const State *s, const int *phases, int k, const int *counts, Partners *P) {
    memset(P, 0, sizeof(*P));
    for (int j = 0; j < k; j++) {
        const PhaseSpec *ph = &s->phases[phases[j]];
        for (int g = 0; g < ph->ngroups; g++) {
            int kind = ph->kind[g];
            P->sets |= kind == K_SET;
            P->runs |= is_run_kind(kind);
            P->colors |= kind == K_COLOR || kind == K_COLOR_RUN || kind == K_COLOR_EVEN_ODD;
            P->parities |= kind == K_EVEN_ODD || kind == K_COLOR_EVEN_ODD;
        }
    }
    for (int c = 0; c < 48; c++) {
        P->numbers[card_number(c)] += counts[c];
        P->by_color[card_color(c)] += counts[c];
        P->by_parity[card_number(c) % 2] += counts[c];
    }
}

/* _Partners.score */
static int partner_score(const Partners *P, const int *counts, int card) {
    if (card >= 48) return 0;
    const int *numbers = P->numbers;
    int number = card_number(card), alike = counts[card], score = 0;
    if (P->sets) score += 2 * (numbers[number] - alike);
    if (P->runs) {
        score += 2 * (numbers[number - 1] + numbers[number + 1]);
        score += numbers[number + 2] + (number > 2 ? numbers[number - 2] : 0);
    }
    if (P->colors) score += P->by_color[card_color(card)] - alike;
    if (P->parities) score += P->by_parity[number % 2] - alike;
    return score;
}

/* GreedyPlayer.wants: whether the top discard is worth taking */
static int greedy_wants(const State *s, const int *phases, int k, int *counts, int top) {
    if (!k) return fits_somewhere(s, top);
    if (top == WILD) return 1;
    int now = gap_now(s, phases, k, counts);
    if (now == 0) return 0;
    counts[top]++;
    int closer = 0, have = counts[WILD];
    for (int j = 0; j < k && !closer; j++) {
        const PhaseSpec *ph = &s->phases[phases[j]];
        if (top < 48 && naturals(counts) >= ph->ngroups) {
            /* enough numbered cards: closer if the Wilds it has, and now - 1 more, do */
            counts[WILD] = have + now - 1;
            closer = can_lay(ph, counts, s->all_wild);
            counts[WILD] = have;
        } else {
            closer = missing(ph, counts, now - 1, s->all_wild) < now;
        }
    }
    counts[top]--;
    return closer;
}

#include "kernel_greedy_masters.h"

/* GreedyPlayer.save_instead: discard i of al, or the save saving.save_pick prefers */
static int save_instead(const State *s, const ActList *al, int seat, int i) {
    const Act *a = &al->acts[i];
    if (!s->save_pile || a->type != A_DISCARD) return i;
    int deny = danger(s, a->card, next_player(s, seat)) >= 2;
    int card = save_pick(s, seat, a->card, s->seats[seat].laid < 0, deny);
    int j = card >= 0 ? find_act(al, A_SAVE, card, 0, 0) : -1;
    return j >= 0 ? j : i;
}

/* GreedyPlayer.discard (with _legal_discards, the stalled hand's random discard, the
 * Anti-phase card's discard and save_instead) */
static int greedy_discard(const State *s, const ActList *al, int seat, MT *rng) {
    const SeatS *info = &s->seats[seat];
    int list[NCARDS + MAXP + 1], n = 0, seen[NCARDS] = {0};
    for (int i = 0; i < info->hand_len; i++) { /* _legal_discards, in the hand's order */
        int c = info->hand[i];
        if (seen[c]++) continue;
        for (int j = 0; j < al->n; j++)
            if (al->acts[j].type == A_DISCARD && al->acts[j].card == c) list[n++] = j;
    }
    if (!n) return 0; /* something only the engine's list knows of */
    if (s->hand_events > STALLED_EVENTS) return list[mt_below(rng, (uint32_t)n)];
    int anti = anti_discard(s, al, seat, list, &n);
    if (anti >= 0) return anti;
    int best = -1;
    long long best_key = 0;
    for (int j = 0; j < n; j++) { /* a Skip: at the leader */
        const Act *a = &al->acts[list[j]];
        if (a->card != SKIP) continue;
        long long key = a->arg >= 0 ? leader_key(s, a->arg) : -1;
        if (best < 0 || key > best_key) {
            best = list[j];
            best_key = key;
        }
    }
    if (best >= 0) return best; /* (never saved instead) */
    int cand[NCARDS + MAXP + 1], nc = 0;
    for (int j = 0; j < n; j++)
        if (al->acts[list[j]].card != WILD) cand[nc++] = list[j];
    if (!nc) {
        memcpy(cand, list, sizeof(int) * (size_t)n);
        nc = n;
    }
    int phases[MAXPH], k = allowed_phases(s, seat, phases), counts[NCARDS];
    hand_counts(info, counts);
    if (k > 1) { /* any order: aim at the phase the hand is closest to (the first such) */
        int closest = 0, fewest = IMPOSSIBLE_W + 1;
        for (int p = 0; p < k; p++) {
            int m = missing(&s->phases[phases[p]], counts, IMPOSSIBLE_W, s->all_wild);
            if (m < fewest) {
                fewest = m;
                closest = phases[p];
            }
        }
        phases[0] = closest;
        k = 1;
    }
    int now = 0, after = next_player(s, seat);
    int start[MAXPH] = {0}, by_number = 1, cached[13];
    for (int p = 0; p < k; p++) {
        const PhaseSpec *ph = &s->phases[phases[p]];
        int w = wilds_needed(ph, counts, IMPOSSIBLE_W, s->all_wild);
        start[p] = w < IMPOSSIBLE_W ? w : 0;
        /* gap_now, from the same search */
        int m = w < IMPOSSIBLE_W ? (w > counts[WILD] ? w - counts[WILD] : 0)
                                 : missing(ph, counts, IMPOSSIBLE_W, s->all_wild);
        if (p == 0 || m < now) now = m;
        for (int g = 0; g < ph->ngroups; g++)
            by_number &= ph->kind[g] == K_SET || ph->kind[g] == K_RUN;
    }
    for (int i = 0; i < 13; i++) cached[i] = -1;
    Partners P;
    partners_of(s, phases, k, counts, &P);
    long long bkey[4] = {0, 0, 0, 0};
    uint64_t brand = 0;
    for (int j = 0; j < nc; j++) { /* discard_ranks, then danger, then the tie-break */
        int c = al->acts[cand[j]].card;
        int gap = now;
        if (by_number && c < 48 && cached[card_number(c)] >= 0) {
            gap = cached[card_number(c)]; /* only numbers matter: every colour alike */
        } else if (c < 48 || c == WILD) {
            counts[c]--;
            gap = 0;
            for (int p = 0; p < k; p++) {
                int m = missing_from(&s->phases[phases[p]], counts, now, start[p], s->all_wild);
                if (p == 0 || m < gap) gap = m;
            }
            counts[c]++;
            if (c < 48) cached[card_number(c)] = gap;
        }
        if (gap > now + 1) gap = now + 1;
        long long key[4] = {gap, partner_score(&P, counts, c), danger(s, c, after),
                            -card_points(c)};
        uint64_t r = mt_random53(rng);
        int better = best < 0, q = 0;
        while (!better && q < 4 && key[q] == bkey[q]) q++;
        if (!better) better = q < 4 ? key[q] < bkey[q] : r < brand;
        if (better) {
            best = cand[j];
            memcpy(bkey, key, sizeof(key));
            brand = r;
        }
    }
    return save_instead(s, al, seat, best);
}

/* GreedyPlayer.declare: the phase missing the fewest cards, saved cards counted (each can
 * be taken back instead of a draw), then in hand alone, then the later phase */
static int greedy_declare(const State *s, const ActList *al) {
    const SeatS *info = &s->seats[s->current];
    int hand[NCARDS], kept[NCARDS], best = 0;
    long long best_key = 0;
    hand_counts(info, hand);
    memcpy(kept, hand, sizeof(kept));
    for (int i = 0; i < info->saved_len; i++) kept[info->saved[i]]++;
    for (int i = 0; i < al->n; i++) {
        const Act *a = &al->acts[i];
        if (a->type != A_DECLARE) continue;
        const PhaseSpec *ph = &s->phases[a->arg - 1];
        long long key = ((long long)missing(ph, kept, IMPOSSIBLE_W, s->all_wild) * 2048 +
                         missing(ph, hand, IMPOSSIBLE_W, s->all_wild)) * 64 - a->arg;
        if (i == 0 || key < best_key) {
            best = i;
            best_key = key;
        }
    }
    return best;
}

/* GreedyPlayer.choose: the index in al (the legal actions of s) of the greedy action of
 * the player to move, rng being that player's generator */
static int greedy_choose(const State *s, const ActList *al, MT *rng) {
    int seat = s->current;
    const SeatS *info = &s->seats[seat];
    if (s->stage == ST_GIVE_WILD) return legal_or(find_act(al, A_GIVE, 0, seat, 0));
    if (s->stage == ST_DECLARE) return greedy_declare(s, al);
    if (s->stage == ST_DRAW) {
        int phases[MAXPH], k = allowed_phases(s, seat, phases), counts[NCARDS];
        hand_counts(info, counts);
        int top = s->discard_len ? s->discard[s->discard_len - 1] : -1;
        if (takes_anti(s, seat)) return legal_or(find_act(al, A_TAKE, 0, 0, 0));
        int take = can_take(s) && top >= 0 && greedy_wants(s, phases, k, counts, top);
        int back = take_back_pick(s, seat, take);
        if (back >= 0) return legal_or(find_act(al, A_TAKE_SAVED, back, 0, 0));
        if (take) return legal_or(find_act(al, A_TAKE, 0, 0, 0));
        return legal_or(find_act(al, can_draw(s) ? A_DRAW : A_TAKE, 0, 0, 0));
    }
    if (s->stage == ST_PLAY) {
        /* going_out = "discard": keep a card to go out with (keep_one) */
        int keep_one = s->floating_rule, lay = greedy_lay(al, keep_one, info->hand_len);
        if (lay >= 0) return lay;
        if (info->laid >= 0 && !(keep_one && info->hand_len <= 1)) {
            Plan p = best_hits(s, info);
            if (p.card >= 0) {
                int i = find_act(al, A_HIT, p.card, p.meld, p.number);
                if (i >= 0) return i;
            }
        }
        if (info->laid >= 0 && give_up_wanted(s, seat)) {
            int i = find_act(al, A_GIVE_UP, 0, 0, 0);
            if (i >= 0) return i;
        }
    }
    return greedy_discard(s, al, seat, rng);
}

/* every seat greedy (rngs: each seat's generator) until the game ends, max_actions (-1: no
 * limit) or, with hands > 0, until `hands` hands have ended since hand `start` */
static long long play_greedy(State *s, ActList *al, MT *rngs, long long max_actions, int start,
                             int hands) {
    long long done = 0;
    while (s->stage != ST_OVER && (max_actions < 0 || done < max_actions) &&
           (hands <= 0 || s->hand_number - start < hands) && !steps_spent) {
        if (legal(s, al) || al->n == 0) break;
        apply_listed(s, al, greedy_choose(s, al, &rngs[s->current]));
        done++;
    }
    return done;
}

#endif
