/* The greedy policy under the Masters rules: save piles and giving up (phase10.bots.saving)
 * and the Anti-phase card (phase10.bots.anti), decision for decision.
 * Part of _kernel.c: kernel_greedy.h includes it after the helpers it uses (missing,
 * best hits, lay-downs, knowledge); each function names the Python one it mirrors. */
#ifndef PHASE10_KERNEL_GREEDY_MASTERS_H
#define PHASE10_KERNEL_GREEDY_MASTERS_H

/* saving.ENDING_CARDS, KEEPER and WILD_KEEPER */
#define ENDING_CARDS 3
#define KEEPER 2
#define WILD_KEEPER 10

/* saving.hand_ending: a player in the hand (not seat, with others_only) is down with
 * ENDING_CARDS cards or fewer */
static int hand_ending(const State *s, int seat, int others_only) {
    for (int i = 0; i < s->n_in_hand; i++) {
        int p = s->in_hand[i];
        const SeatS *info = &s->seats[p];
        if (info->laid >= 0 && info->hand_len <= ENDING_CARDS && !(others_only && p == seat))
            return 1;
    }
    return 0;
}

/* saving.future_phases, as a bit mask: the phases not completed, not down this hand and not
 * in working (a bit mask of the phases the hand works on now) */
static uint32_t future_phases(const State *s, const SeatS *info, uint32_t working) {
    uint32_t done = info->completed | working, out = 0;
    if (info->laid >= 0) done |= 1u << info->laid;
    for (int i = 0; i < s->nphases; i++)
        if (!((done >> i) & 1u)) out |= 1u << i;
    return out;
}

/* saving.keeper_value: how well card builds on the save pile for the phases in future */
static int keeper_value(const State *s, int card, const SeatS *info, uint32_t future) {
    if (card == SKIP || card == ANTI) return -1;
    if (!future) return 0;
    if (card == WILD) return WILD_KEEPER;
    int sets = 0, runs = 0, colors = 0, parities = 0, score = 0, number = card_number(card);
    for (int i = 0; i < s->nphases; i++) {
        if (!((future >> i) & 1u)) continue;
        const PhaseSpec *ph = &s->phases[i];
        for (int g = 0; g < ph->ngroups; g++) {
            sets |= ph->kind[g] == K_SET;
            runs |= is_run_kind(ph->kind[g]);
            colors |= needs_color(ph->kind[g]);
            parities |= needs_parity(ph->kind[g]);
        }
    }
    for (int i = 0; i < info->saved_len; i++) {
        int other = info->saved[i];
        if (other >= 48) continue; /* no number */
        int gap = abs(card_number(other) - number);
        if (sets && gap == 0) score += 2;
        if (runs && gap > 0 && gap <= 2) score += gap == 1 ? 2 : 1;
        if (colors && card_color(other) == card_color(card)) score += 1;
        if (parities && gap % 2 == 0) score += 1;
    }
    return score;
}

/* saving.save_pick: the card to save instead of discarding planned, or -1 to discard it.
 * has_gap: the phase is not down (the gap is measured over the phases seat may lay); deny:
 * the planned discard would help the next player */
static int save_pick(const State *s, int seat, int planned, int has_gap, int deny) {
    const SeatS *info = &s->seats[seat];
    if (!s->save_pile || s->stage != ST_PLAY || info->saved_this_hand || info->hand_len < 2 ||
        planned == SKIP || planned == ANTI)
        return -1;
    if (s->saved_penalty) return planned == WILD ? planned : -1;
    if (planned == WILD) return planned; /* (what follows only weighs other cards) */
    int phases[MAXPH], k = allowed_phases(s, seat, phases), counts[NCARDS];
    uint32_t working = 0;
    for (int j = 0; j < k; j++) working |= 1u << phases[j];
    uint32_t future = future_phases(s, info, working);
    int ending = hand_ending(s, seat, 0);
    hand_counts(info, counts);
    counts[planned]--;
    int now = has_gap ? gap_now(s, phases, k, counts) : 0;
    counts[planned]++;
    int lost = has_gap && now >= 2 && hand_ending(s, seat, 1);
    /* the best card to keep: most worth, then the planned discard, then the costliest; the
     * first in the hand's order of equals */
    int best = -1, best_key = 0, best_score = 0, seen[NCARDS] = {0};
    for (int i = 0; i < info->hand_len; i++) {
        int c = info->hand[i];
        if (seen[c]++ || !(c < 48 || c == WILD)) continue;
        if (has_gap && !lost && c != planned) { /* harmless: the phase no further than planned */
            counts[c]--;
            int gap = gap_now(s, phases, k, counts);
            counts[c]++;
            if (gap > now) continue;
        }
        int score = keeper_value(s, c, info, future);
        int key = (score * 2 + (c == planned)) * 64 + card_points(c);
        if (best < 0 || key > best_key) {
            best = c;
            best_key = key;
            best_score = score;
        }
    }
    if (best_score >= KEEPER) return best;
    if (ending || lost) return best_score > 0 ? best : planned;
    return deny ? planned : -1;
}

/* saving.take_back_pick: the saved card to take back instead of drawing, or -1 (top_wanted:
 * the top discard is wanted) */
static int take_back_pick(const State *s, int seat, int top_wanted) {
    const SeatS *info = &s->seats[seat];
    if (!s->save_pile || s->stage != ST_DRAW || !info->saved_len) return -1;
    int saved[NCARDS], n = 0, seen[NCARDS] = {0}; /* each card once, oldest first */
    for (int i = 0; i < info->saved_len; i++)
        if (!seen[info->saved[i]]++) saved[n++] = info->saved[i];
    int phases[MAXPH], k = allowed_phases(s, seat, phases), counts[NCARDS];
    if (!k) { /* down: a card that fits comes back where saved cards score */
        int best = -1, best_key = 0;
        if (!s->saved_penalty) return -1;
        for (int i = 0; i < n; i++) {
            if (!fits_somewhere(s, saved[i])) continue;
            int key = (saved[i] == WILD) * 64 - card_points(saved[i]);
            if (best < 0 || key < best_key) {
                best = saved[i];
                best_key = key;
            }
        }
        return best;
    }
    if (top_wanted) return -1;
    hand_counts(info, counts);
    int now = gap_now(s, phases, k, counts);
    if (now == 0) return -1;
    int best = -1, best_closer = 0, best_key = 0;
    for (int i = 0; i < n; i++) {
        int c = saved[i];
        counts[c]++;
        int closer = gap_now(s, phases, k, counts);
        counts[c]--;
        int key = (closer * 2 + (c == WILD)) * 64 + sort_key(c);
        if (best < 0 || key < best_key) {
            best = c;
            best_key = key;
            best_closer = closer;
        }
    }
    return best_closer < now ? best : -1;
}

/* saving.give_up_wanted (the player is down): under give_up = "keep", unless no other
 * phase is left or the hand is nearly over */
static int give_up_wanted(const State *s, int seat) {
    const SeatS *info = &s->seats[seat];
    if (s->give_up != 2 || info->gave_up) return 0;
    if (!future_phases(s, info, 0)) return 0;
    return !hand_ending(s, seat, 0);
}

/* ---------------------------------------------------------------- the Anti-phase card */

/* anti.victim_key, as one number that orders alike (higher first) */
static long long victim_key(const State *s, int seat) {
    const SeatS *info = &s->seats[seat];
    int done = popcount(info->completed) + (info->laid >= 0);
    return ((long long)(done > 0) * 64 + done) * 1000000000LL - info->score;
}

/* anti.anti_discard: of the legal discards list[0..*n) (in the hand's order), the one to
 * make for the Anti-phase card; or -1, with its discards dropped from the list when the
 * card is kept (anti.holds_anti) */
static int anti_discard(const State *s, const ActList *al, int seat, int *list, int *n) {
    int first = -1, named = -1, rest = 0;
    long long named_key = 0;
    for (int j = 0; j < *n; j++) {
        const Act *a = &al->acts[list[j]];
        if (a->card != ANTI) {
            list[rest++] = list[j];
            continue;
        }
        if (first < 0) first = list[j];
        if (a->arg >= 0 && (named < 0 || victim_key(s, a->arg) > named_key)) {
            named = list[j]; /* the last card: go out naming the one it hurts most */
            named_key = victim_key(s, a->arg);
        }
    }
    if (first < 0) return -1;
    if (named >= 0) return named;
    const SeatS *info = &s->seats[seat];
    int others = 0;
    for (int i = 0; i < info->hand_len; i++) others += info->hand[i] != ANTI;
    /* holds_anti: down, one other card left, nobody else about to go out */
    if (rest && info->laid >= 0 && !hand_ending(s, seat, 1) && others == 1 && info->hand_len == 2) {
        *n = rest;
        return -1;
    }
    return first;
}

/* anti.goes_out_with_anti: whether seat's hand, less the Anti-phase card, can be laid down
 * (best_lay_down of a phase it may lay) and hit away this turn */
static int goes_out_with_anti(const State *s, int seat) {
    const SeatS *info = &s->seats[seat];
    uint8_t hand[MAXHAND];
    int len = 0, counts[NCARDS] = {0};
    for (int i = 0; i < info->hand_len; i++)
        if (info->hand[i] != ANTI) {
            hand[len++] = info->hand[i];
            counts[info->hand[i]]++;
        }
    if (info->laid >= 0) return best_hits_on(s->melds, s->n_melds, hand, len).count == len;
    int phases[MAXPH], k = allowed_phases(s, seat, phases), out = 0;
    Group *table = malloc(sizeof(Group) * (MAXMELD + MAXG));
    ActList lays;
    memset(&lays, 0, sizeof(lays));
    if (!table) return 0;
    memcpy(table, s->melds, sizeof(Group) * (size_t)s->n_melds);
    for (int j = 0; j < k && !out; j++) {
        const PhaseSpec *ph = &s->phases[phases[j]];
        if (!can_lay(ph, counts, s->all_wild)) continue;
        if (lays.nlays) memset(lays.hashes, 0, sizeof(uint64_t) * (size_t)lays.hcap);
        lays.nlays = 0;
        if (lay_downs(ph, counts, &lays, 0, s->all_wild) || !lays.nlays) continue;
        int best = 0;
        for (int i = 1; i < lays.nlays; i++)
            if (lay_better(&lays.lays[i], &lays.lays[best])) best = i;
        const LayDown *ld = &lays.lays[best];
        int left[NCARDS], n = s->n_melds, rest_len = 0;
        uint8_t rest[MAXHAND];
        memcpy(left, counts, sizeof(left));
        for (int g = 0; g < ld->ngroups; g++) {
            table[n++] = ld->groups[g];
            for (int i = 0; i < ld->groups[g].len; i++) left[ld->groups[g].cards[i]]--;
        }
        /* what is left (the order of the cards changes which hit comes first, not how many) */
        for (int c = 0; c < NCARDS; c++)
            for (int i = 0; i < left[c]; i++) rest[rest_len++] = (uint8_t)c;
        out = best_hits_on(table, n, rest, rest_len).count == rest_len;
    }
    al_free(&lays);
    free(table);
    return out;
}

/* anti.takes_anti: take the Anti-phase card from the discard pile only to go out with it
 * this turn, naming someone */
static int takes_anti(const State *s, int seat) {
    if (!s->discard_len || s->discard[s->discard_len - 1] != ANTI || !can_take(s)) return 0;
    int others = 0; /* view.anti_targets: nobody in a tie-break hand */
    for (int i = 0; i < s->n_in_hand; i++) others += s->in_hand[i] != seat;
    if (s->tie_break || !others) return 0;
    return goes_out_with_anti(s, seat);
}

#endif
