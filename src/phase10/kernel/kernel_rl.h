/* Reinforcement-learning stepping: phase10.rl's action numbers, legal-action mask,
 * observation vector and rewards, in the kernel.
 * Part of _kernel.c, which includes it: the kernel is one compilation unit.
 *
 * Every function mirrors phase10/rl/encoding.py (Layout), table.py (group_fit), blocks.py
 * (save_block, anti_block) or core.py (EnvCore.apply's rewards) and names it; the tests
 * hold the two equal, float for float (each feature is worked out in double precision and
 * rounded to float32 once, as numpy does when Python assigns a float). */
#ifndef PHASE10_KERNEL_RL_H
#define PHASE10_KERNEL_RL_H

#include "kernel_greedy.h"

#define RL_CARDS 50 /* blocks.CARDS: the card blocks' card indices (the Anti-phase card apart) */
#define RL_SEAT 39  /* encoding.SEAT_FEATURES */
#define RL_SLOT 58  /* table.SLOT_FEATURES */
#define RL_GLOBAL 10
#define RL_SAVE_SEAT 4
#define RL_RULE 7
#define RL_ANTI 4
#define RL_DRAW 0
#define RL_TAKE 1
#define RL_LAY_MOST 2
#define RL_LAY_FEWEST 12
#define RL_DECLARE 22
#define RL_GIVE 32
#define RL_DISCARD 38
#define RL_SKIP_NONE 87
#define RL_SKIP_ON 88
#define RL_HIT 93
#define RL_WILD_LOW 48
#define RL_WILD_HIGH 49

/* the kernel's group kinds (their names' order) as the observation's one-hot (GroupKind's
 * order: set, run, colour, even/odd, colour run, colour even/odd) */
static const int RL_KIND[NKINDS] = {2, 5, 4, 3, 1, 0};
/* the kernel's stages as the observation's one-hot (draw, play, declare, give wild, wild
 * discard, game over) */
static const int RL_STAGE[6] = {0, 1, 5, 3, 4, 2};

/* what an RL environment keeps with each kernel game (KernelObject.rl) */
typedef struct {
    int completed[MAXP]; /* each seat's phases completed at the last hand's end */
    long long steps;     /* action numbers stepped this episode */
    int *log;            /* those not yet replayed in the engine (EnvCore.game), in order */
    int log_len, log_cap;
    int8_t *mask; /* the mask of the position, when mask_valid */
    int mask_len, mask_valid;
} RLTrack;

static void rl_track_free(RLTrack *t) {
    free(t->log);
    free(t->mask);
    memset(t, 0, sizeof(*t));
}

/* a copy of from into to (uninitialised): the log copied, the mask left to work out again;
 * -1 when out of memory (to then holds nothing to free) */
static int rl_track_copy(RLTrack *to, const RLTrack *from) {
    *to = *from;
    to->mask = NULL;
    to->mask_len = to->mask_valid = 0;
    to->log = NULL;
    to->log_cap = 0;
    if (!from->log_len) return 0;
    to->log = malloc(sizeof(int) * (size_t)from->log_len);
    if (!to->log) {
        to->log_len = 0;
        return -1;
    }
    memcpy(to->log, from->log, sizeof(int) * (size_t)from->log_len);
    to->log_cap = from->log_len;
    return 0;
}

/* Layout's sizes and offsets */
typedef struct {
    int version, n, groups, slots;
    int save_offset, anti_offset, num_actions;
    int seat_offset, slot_offset, global_offset, save_pile_offset, anti_block_offset;
    int known_offset, card_indices, obs_size, known_cards;
    double phase_reward;
} RLLayout;

static void rl_layout(RLLayout *L, int version, int n, int groups, double phase_reward) {
    L->version = version;
    L->n = n;
    L->groups = groups;
    L->slots = n * groups;
    L->save_offset = RL_HIT + RL_CARDS * L->slots;
    L->anti_offset = L->save_offset + (2 * RL_CARDS + 1) * (version >= 2);
    L->num_actions = L->anti_offset + MAXP * (version >= 3);
    L->seat_offset = 4 * RL_CARDS;
    L->slot_offset = L->seat_offset + n * RL_SEAT;
    L->global_offset = L->slot_offset + L->slots * RL_SLOT;
    L->save_pile_offset = L->global_offset + RL_GLOBAL;
    int save = RL_CARDS + n * RL_SAVE_SEAT + (n - 1) * RL_CARDS + RL_RULE;
    L->anti_block_offset = L->save_pile_offset + save * (version >= 2);
    L->known_offset = L->anti_block_offset + (RL_ANTI + n) * (version >= 3);
    L->known_cards = version >= 1;
    L->card_indices = version >= 3 ? NCARDS : RL_CARDS;
    L->obs_size = L->known_offset + (n - 1) * L->card_indices * L->known_cards;
    L->phase_reward = phase_reward;
}

/* group_fit: the numbered cards that fit (bits by card index), and the Wild's number below
 * a run (0 on another kind; -1: no fit) and above a run (-1: no fit); placements' tests,
 * card by card, as masks */
static uint64_t rl_fit(const Group *g, int *wild_low, int *wild_high) {
#define RL_NUMBER(k) (0x001001001001ull << ((k) - 1)) /* the four cards of number k */
    uint64_t bits = (1ull << 48) - 1;
    if (g->color >= 0) bits &= 0xfffull << (12 * g->color);
    if (g->parity >= 0) /* (numbers 1, 3, ... 11 odd; 2, 4, ... 12 even) */
        bits &= (g->parity ? 0x555555555555ull : 0xaaaaaaaaaaaaull);
    *wild_low = *wild_high = -1;
    if (!is_run_kind(g->kind)) {
        if (g->kind == K_SET) bits &= g->number >= 1 && g->number <= 12 ? RL_NUMBER(g->number) : 0;
        *wild_low = 0;
        return bits;
    }
    int high = g->low + g->len - 1;
    uint64_t ends = 0;
    if (g->low - 1 >= 1) {
        ends |= RL_NUMBER(g->low - 1);
        *wild_low = g->low - 1;
    }
    if (high + 1 <= 12) {
        ends |= RL_NUMBER(high + 1);
        *wild_high = high + 1;
    }
    return bits & ends;
#undef RL_NUMBER
}

/* Layout.slot_ids: the table slot of meld m seen from seat me */
static int rl_slot(const State *s, const RLLayout *L, int m, int me) {
    int owner = s->meld_owner[m], first = 0;
    while (s->meld_owner[first] != owner) first++; /* the seat's first group */
    return ((owner - me + L->n) % L->n) * L->groups + m - first;
}

/* Layout._legal, written as 0/1 into out (all 0 once the game is over) */
static void rl_mask(const State *s, const RLLayout *L, int8_t *out) {
    memset(out, 0, (size_t)L->num_actions);
    if (s->stage == ST_OVER) return;
    int me = s->current, n = L->n;
    const SeatS *info = &s->seats[me];
    if (s->stage == ST_DRAW) { /* Rulebook._check_draw */
        int top = s->discard_len ? s->discard[s->discard_len - 1] : -1;
        int draw = can_draw(s), take = can_take(s), floating = info->floating;
        int fits_top = floating && top >= 0 && fits_somewhere(s, top);
        int must_take = floating && take && fits_top;
        if (draw && !must_take) out[RL_DRAW] = 1;
        if (take && !(floating && !fits_top && draw)) out[RL_TAKE] = 1;
        if (info->saved_len && !must_take)
            for (int i = 0; i < info->saved_len; i++)
                out[L->save_offset + RL_CARDS + info->saved[i]] = 1;
        return;
    }
    if (s->stage == ST_GIVE_WILD) {
        for (int i = 0; i < s->n_in_hand; i++) out[RL_GIVE + (s->in_hand[i] - me + n) % n] = 1;
        return;
    }
    if (s->stage == ST_DECLARE) {
        for (int i = 0; i < s->nphases; i++)
            if (!((info->completed >> i) & 1u)) out[RL_DECLARE + i] = 1;
        return;
    }
    int counts[NCARDS] = {0};
    uint64_t bits = 0;
    for (int i = 0; i < info->hand_len; i++) {
        counts[info->hand[i]]++;
        bits |= 1ull << info->hand[i];
    }
    int play = s->stage == ST_PLAY, wild = counts[WILD] > 0, bound = 0;
    uint64_t naturals[MAXMELD];
    int low[MAXMELD], high[MAXMELD];
    int fits = play ? s->n_melds : 0;
    for (int m = 0; m < fits; m++) {
        naturals[m] = rl_fit(&s->melds[m], &low[m], &high[m]);
        if (info->floating && ((naturals[m] & bits) || (wild && (low[m] >= 0 || high[m] >= 0))))
            bound = 1;
    }
    if (play && !bound && info->laid < 0 && !info->refill) {
        int allowed[MAXPH], k = allowed_phases(s, me, allowed);
        for (int j = 0; j < k; j++)
            if (can_lay(&s->phases[allowed[j]], counts, s->all_wild)) {
                out[RL_LAY_MOST + allowed[j]] = 1;
                out[RL_LAY_FEWEST + allowed[j]] = 1;
            }
    }
    if (fits && info->laid >= 0)
        for (int m = 0; m < fits; m++) {
            int base = RL_HIT + RL_CARDS * rl_slot(s, L, m, me);
            uint64_t hits = naturals[m] & bits;
            for (int c = 0; c < 48; c++)
                if ((hits >> c) & 1u) out[base + c] = 1;
            if (wild && low[m] >= 0) out[base + RL_WILD_LOW] = 1;
            if (wild && high[m] >= 0) out[base + RL_WILD_HIGH] = 1;
        }
    if (play && info->laid >= 0 && s->give_up && !s->tie_break && !info->gave_up)
        out[L->save_offset + 2 * RL_CARDS] = 1;
    if (bound) return;
    if (play && s->save_pile && !info->saved_this_hand && info->hand_len > 1)
        for (int c = 0; c < RL_CARDS; c++)
            if (counts[c]) out[L->save_offset + c] = 1;
    for (int c = 0; c < SKIP; c++)
        if (counts[c]) out[RL_DISCARD + c] = 1;
    if (counts[SKIP]) {
        int targets[MAXP], nt = s->skip_next ? 0 : skip_targets(s, me, targets);
        for (int j = 0; j < nt; j++) out[RL_SKIP_ON + (targets[j] - me + n) % n - 1] = 1;
        if (!nt) out[RL_SKIP_NONE] = 1;
    }
    if (counts[ANTI]) { /* Rulebook._check_anti_discard: only the last card names */
        int named = 0;
        if (play && info->hand_len == 1 && !s->tie_break)
            for (int p = 0; p < n; p++)
                if (p != me && in_hand(s, p)) {
                    out[L->anti_offset + (p - me + n) % n] = 1;
                    named = 1;
                }
        if (!named) out[L->anti_offset] = 1;
    }
}

/* " + ".join(describe()) order, for ties (greedy's lay_text) */
static int rl_text_less(const LayDown *a, const LayDown *b) {
    char ta[1024], tb[1024];
    lay_text(a, ta, (int)sizeof(ta));
    lay_text(b, tb, (int)sizeof(tb));
    return strcmp(ta, tb) < 0;
}

/* table.arrangements: of every lay-down of phase index with this hand, the most cards
 * (then the most points), or the fewest (then the fewest Wilds, then the most points);
 * ties to the first in text order. 0, or -1 when out of memory or there is none */
static int rl_arrangement(const State *s, int index, int most, ActList *al, LayDown *out) {
    const SeatS *info = &s->seats[s->current];
    int counts[NCARDS] = {0};
    for (int i = 0; i < info->hand_len; i++) counts[info->hand[i]]++;
    if (al->nlays) memset(al->hashes, 0, sizeof(uint64_t) * (size_t)al->hcap);
    al->nlays = 0;
    if (lay_downs(&s->phases[index], counts, al, names_phase(s) ? index + 1 : 0, s->all_wild))
        return -1;
    int best = -1;
    long key[3] = {0, 0, 0};
    for (int i = 0; i < al->nlays; i++) {
        const LayDown *ld = &al->lays[i];
        long laid = 0, points = 0, wilds = 0;
        for (int g = 0; g < ld->ngroups; g++)
            for (int j = 0; j < ld->groups[g].len; j++) {
                int c = ld->groups[g].cards[j];
                laid++;
                points += card_points(c);
                wilds += c == WILD;
            }
        long k[3] = {most ? -laid : laid, most ? -points : wilds, most ? 0 : -points};
        int cmp = 0;
        for (int j = 0; j < 3 && !cmp && best >= 0; j++) cmp = k[j] < key[j] ? -1 : k[j] > key[j];
        if (best < 0 || cmp < 0 || (cmp == 0 && rl_text_less(ld, &al->lays[best]))) {
            best = i;
            memcpy(key, k, sizeof(key));
        }
    }
    if (best < 0) return -1;
    *out = al->lays[best];
    return 0;
}

/* Layout.decode: the kernel's action for an action number (legal: see rl_mask); 0, or -1
 * when it names nothing here (or memory ran out) */
static int rl_decode(const State *s, const RLLayout *L, int action, Act *a, LayDown *ld,
                     ActList *al) {
    int me = s->current, n = L->n;
    Act none = {A_DRAW, 0, -1, 0, -1};
    *a = none;
    if (action >= L->anti_offset) {
        int r = action - L->anti_offset;
        a->type = A_DISCARD;
        a->card = ANTI;
        a->arg = r ? (me + r) % n : -1;
        return 0;
    }
    if (action >= L->save_offset) {
        int column = action - L->save_offset;
        a->type = column < RL_CARDS ? A_SAVE : column < 2 * RL_CARDS ? A_TAKE_SAVED : A_GIVE_UP;
        a->card = column % RL_CARDS;
        return 0;
    }
    if (action >= RL_HIT) {
        int slot = (action - RL_HIT) / RL_CARDS, column = (action - RL_HIT) % RL_CARDS;
        for (int m = 0; m < s->n_melds; m++) {
            if (rl_slot(s, L, m, me) != slot) continue;
            a->type = A_HIT;
            a->arg = m;
            a->card = column < RL_WILD_LOW ? column : WILD;
            a->number = 0;
            if (column >= RL_WILD_LOW) {
                int low, high;
                rl_fit(&s->melds[m], &low, &high);
                a->number = column == RL_WILD_LOW ? low : high;
            }
            return 0;
        }
        return -1;
    }
    a->type = A_DISCARD;
    if (action >= RL_SKIP_ON) {
        a->card = SKIP;
        a->arg = (me + action - RL_SKIP_ON + 1) % n;
    } else if (action == RL_SKIP_NONE) {
        a->card = SKIP;
    } else if (action >= RL_DISCARD) {
        a->card = action - RL_DISCARD;
    } else if (action >= RL_GIVE) {
        a->type = A_GIVE;
        a->arg = (me + action - RL_GIVE) % n;
    } else if (action >= RL_DECLARE) {
        a->type = A_DECLARE;
        a->arg = action - RL_DECLARE + 1;
    } else if (action >= RL_LAY_MOST) {
        int most = action < RL_LAY_FEWEST;
        a->type = A_LAY;
        a->lay = 0;
        return rl_arrangement(s, action - (most ? RL_LAY_MOST : RL_LAY_FEWEST), most, al, ld);
    } else {
        a->type = action == RL_DRAW ? A_DRAW : A_TAKE;
    }
    return 0;
}

/* EnvCore.apply's rewards after an action: at a hand's end each seat gets phase_reward for
 * each phase completed since the last hand's end (completed: those counts, updated), at the
 * game's end each winner 1 / winners and everyone else -1 */
static void rl_rewards(const State *s, const RLLayout *L, int hand_before, int *completed,
                       double *rewards) {
    for (int p = 0; p < s->n; p++) rewards[p] = 0.0;
    int over = s->stage == ST_OVER;
    if (!over && s->hand_number == hand_before) return; /* (a hand that ends starts another) */
    for (int p = 0; p < s->n; p++) {
        int count = popcount(s->seats[p].completed);
        rewards[p] += L->phase_reward * (double)(count - completed[p]);
        completed[p] = count;
    }
    if (!over) return;
    for (int p = 0; p < s->n; p++) {
        int won = 0;
        for (int i = 0; i < s->n_winners; i++) won |= s->winners[i] == p;
        rewards[p] += won ? 1.0 / (double)s->n_winners : -1.0;
    }
}

#define F(x) ((float)(x)) /* a double rounded to float32 once, as numpy stores it */

/* Layout.observe and observe_game: seat me's observation (its own hand, the public state) */
static void rl_observe(const State *s, const RLLayout *L, int me, float *out) {
    memset(out, 0, sizeof(float) * (size_t)L->obs_size);
    int n = L->n, held[NCARDS] = {0}, pile[NCARDS] = {0};
    const SeatS *mine = &s->seats[me];
    for (int i = 0; i < mine->hand_len; i++) held[mine->hand[i]]++;
    for (int c = 0; c < RL_CARDS; c++) out[c] = F(held[c]);
    if (s->discard_len) {
        int top = s->discard[s->discard_len - 1];
        if (top != ANTI) out[RL_CARDS + top] = 1.0f;
        for (int i = 0; i < s->discard_len; i++) pile[s->discard[i]]++;
        for (int c = 0; c < RL_CARDS; c++) out[2 * RL_CARDS + c] = F(pile[c]);
    }
    if (s->n_melds) {
        int table[NCARDS] = {0};
        for (int m = 0; m < s->n_melds; m++) {
            const Group *g = &s->melds[m];
            for (int i = 0; i < g->len; i++) table[g->cards[i]]++;
            float *f = out + L->slot_offset + rl_slot(s, L, m, me) * RL_SLOT;
            int low, high;
            uint64_t naturals = rl_fit(g, &low, &high);
            f[0] = 1.0f;
            f[1 + RL_KIND[g->kind]] = 1.0f;
            f[1 + NKINDS] = F(g->len / 12.0);
            float *fits = f + 2 + NKINDS;
            for (int c = 0; c < 48; c++)
                if ((naturals >> c) & 1u) fits[c] = 1.0f;
            fits[RL_WILD_LOW] = low >= 0 ? 1.0f : 0.0f;
            fits[RL_WILD_HIGH] = high >= 0 ? 1.0f : 0.0f;
        }
        for (int c = 0; c < RL_CARDS; c++) out[3 * RL_CARDS + c] = F(table[c]);
    }
    int acting = s->stage != ST_OVER ? s->current : -1;
    for (int r = 0; r < n; r++) {
        int p = (me + r) % n;
        const SeatS *seat = &s->seats[p];
        float *b = out + L->seat_offset + r * RL_SEAT;
        double score = seat->score / 100.0;
        b[0] = F(seat->hand_len / 10.0);
        b[1] = F(score < 100.0 ? score : 100.0);
        b[2 + (seat->phase < MAXPH ? seat->phase : MAXPH)] = 1.0f;
        b += 3 + MAXPH;
        for (int i = 0; i < MAXPH; i++)
            if ((seat->completed >> i) & 1u) b[i] = 1.0f;
        b += MAXPH;
        if (seat->laid >= 0) b[0] = 1.0f;
        if (seat->declared >= 0) b[1 + seat->declared] = 1.0f;
        b += 1 + MAXPH;
        b[0] = F(seat->pending_skip != 0);
        b[1] = F(seat->floating != 0);
        b[2] = F(p == s->dealer);
        b[3] = F(p == acting);
        b[4] = F(in_hand(s, p));
    }
    float *tail = out + L->global_offset;
    double hand = s->hand_number / 100.0;
    tail[RL_STAGE[s->stage]] = 1.0f;
    tail[6] = F(s->draw_len / 108.0);
    tail[7] = F(s->discard_len / 108.0);
    tail[8] = F(s->tie_break != 0);
    tail[9] = F(hand < 1.0 ? hand : 1.0);
    if (L->version >= 2) { /* blocks.save_block */
        float *b = out + L->save_pile_offset;
        for (int i = 0; i < mine->saved_len; i++) b[mine->saved[i]] += 1.0f;
        for (int r = 0; r < n; r++) {
            const SeatS *seat = &s->seats[(me + r) % n];
            float *f = b + RL_CARDS + r * RL_SAVE_SEAT;
            f[0] = F(seat->saved_len / 10.0);
            f[1] = F(seat->saved_this_hand != 0);
            f[2] = F(seat->gave_up != 0);
            f[3] = F(seat->refill != 0);
        }
        if (s->save_pile == 2)
            for (int r = 1; r < n; r++) {
                const SeatS *seat = &s->seats[(me + r) % n];
                float *f = b + RL_CARDS + n * RL_SAVE_SEAT + (r - 1) * RL_CARDS;
                for (int i = 0; i < seat->saved_len; i++) f[seat->saved[i]] += 1.0f;
            }
        float *rules = b + RL_CARDS + n * RL_SAVE_SEAT + (n - 1) * RL_CARDS;
        rules[s->save_pile] = 1.0f;
        rules[3] = F(s->saved_penalty != 0);
        rules[4 + s->give_up] = 1.0f;
    }
    if (L->version >= 3) { /* blocks.anti_block */
        float *b = out + L->anti_block_offset;
        int top = s->discard_len ? s->discard[s->discard_len - 1] : -1;
        b[0] = F(held[ANTI]);
        b[1] = F(top == ANTI);
        b[2] = F(pile[ANTI]);
        b[3] = F(s->antis > 0);
        if (s->antis > 0 && !s->tie_break)
            for (int r = 0; r < n; r++) {
                const SeatS *seat = &s->seats[(me + r) % n];
                int done = -1;
                for (int i = 0; i < MAXPH; i++)
                    if ((seat->completed >> i) & 1u) done = i;
                if (seat->laid > done) done = seat->laid;
                b[RL_ANTI + r] = F((done + 1) / 10.0);
            }
    }
    if (L->known_cards) /* HeldTracker's counts, where positive, once started */
        for (int r = 1; r < n; r++) {
            int p = (me + r) % n;
            if (!s->held_on[p]) continue;
            float *b = out + L->known_offset + (r - 1) * L->card_indices;
            const int16_t *held = s->held[p];
            for (int c = 0; c < L->card_indices; c += 4) { /* most are 0: four at a time */
                int width = L->card_indices - c < 4 ? L->card_indices - c : 4;
                if (width == 4) {
                    uint64_t word;
                    memcpy(&word, held + c, 8);
                    if (!word) continue;
                }
                for (int i = c; i < c + width; i++)
                    if (held[i] > 0) b[i] = F(held[i]);
            }
        }
}

#undef F

#endif
