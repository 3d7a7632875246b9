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
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define WILD 48
#define SKIP 49
#define NCARDS 50
#define MAXP 6
#define MAXHAND 16
#define DECK 108
#define MAXGC 40     /* cards one group on the table can hold */
#define MAXG 6       /* groups one phase can ask for */
#define MAXPH 10
#define MAXMELD (MAXP * MAXG)
#define K_COLOR 0
#define K_RUN 1
#define K_SET 2
#define ST_DRAW 0
#define ST_PLAY 1
#define ST_OVER 2
#define A_DRAW 0
#define A_TAKE 1
#define A_DISCARD 2
#define A_HIT 3
#define A_LAY 4

/* ---------------------------------------------------------------- cards */

static int card_number(int c) { return c < 48 ? c % 12 + 1 : 0; }
static int card_color(int c) { return c < 48 ? c / 12 : -1; }
static int card_points(int c) {
    if (c == WILD) return 25;
    if (c == SKIP) return 15;
    return card_number(c) <= 9 ? 5 : 10;
}
/* Card.sort_key: number, then colour; the Wild, then the Skip, after every number */
static int sort_key(int c) {
    if (c < 48) return card_number(c) * 4 + card_color(c);
    return c == WILD ? 13 * 4 : 14 * 4;
}
/* the order of a colour's letter (B < G < R < Y), as _group_key compares them; 0: none */
static const int COLOR_RANK[4] = {3, 1, 2, 4};

/* ---------------------------------------------------------------- MT19937 */

typedef struct {
    uint32_t mt[624];
    int mti;
} MT;

static uint32_t mt_next(MT *m) {
    static const uint32_t mag01[2] = {0x0u, 0x9908b0dfu};
    uint32_t y;
    if (m->mti >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (m->mt[kk] & 0x80000000u) | (m->mt[kk + 1] & 0x7fffffffu);
            m->mt[kk] = m->mt[kk + 397] ^ (y >> 1) ^ mag01[y & 1u];
        }
        for (; kk < 623; kk++) {
            y = (m->mt[kk] & 0x80000000u) | (m->mt[kk + 1] & 0x7fffffffu);
            m->mt[kk] = m->mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 1u];
        }
        y = (m->mt[623] & 0x80000000u) | (m->mt[0] & 0x7fffffffu);
        m->mt[623] = m->mt[396] ^ (y >> 1) ^ mag01[y & 1u];
        m->mti = 0;
    }
    y = m->mt[m->mti++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

/* random.Random._randbelow_with_getrandbits for 2 <= n < 2**32 */
static uint32_t mt_below(MT *m, uint32_t n) {
    int k = 0;
    while ((n >> k) != 0) k++;
    uint32_t r = mt_next(m) >> (32 - k);
    while (r >= n) r = mt_next(m) >> (32 - k);
    return r;
}

/* random.Random.shuffle */
static void mt_shuffle(MT *m, uint8_t *x, int len) {
    for (int i = len - 1; i >= 1; i--) {
        int j = (int)mt_below(m, (uint32_t)(i + 1));
        uint8_t t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

/* random.Random(seed) for 0 <= seed < 2**64: init_by_array over the seed's 32-bit words */
static void mt_seed(MT *m, uint64_t seed) {
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    int len = key[1] ? 2 : 1, i = 1, j = 0, k;
    m->mt[0] = 19650218u;
    for (int n = 1; n < 624; n++)
        m->mt[n] = 1812433253u * (m->mt[n - 1] ^ (m->mt[n - 1] >> 30)) + (uint32_t)n;
    for (k = 624 > len ? 624 : len; k; k--) {
        m->mt[i] = (m->mt[i] ^ ((m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) * 1664525u)) + key[j] +
                   (uint32_t)j;
        i++;
        j++;
        if (i >= 624) {
            m->mt[0] = m->mt[623];
            i = 1;
        }
        if (j >= len) j = 0;
    }
    for (k = 623; k; k--) {
        m->mt[i] = (m->mt[i] ^ ((m->mt[i - 1] ^ (m->mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= 624) {
            m->mt[0] = m->mt[623];
            i = 1;
        }
    }
    m->mt[0] = 0x80000000u;
    m->mti = 624;
}

/* splitmix64: the kernel's own choices (the game's generator is only for its shuffles) */
static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* ---------------------------------------------------------------- state */

typedef struct {
    uint8_t kind, len;
    int8_t number, low, color; /* 0 / -1 when the kind has none */
    uint8_t cards[MAXGC];
} Group;

typedef struct {
    uint8_t hand[MAXHAND];
    int hand_len;
    int score, phase, laid; /* laid: -1 none */
    uint32_t completed;     /* bit i: phase i completed */
    int pending_skip;
} SeatS;

typedef struct {
    int kind[MAXG], size[MAXG];
    int ngroups;
    int order[MAXG]; /* the slots by (kind, -size, index) */
} PhaseSpec;

typedef struct {
    int n;
    int nphases;
    PhaseSpec phases[MAXPH];
    int hand_number, dealer, current, stage, first_player, tie_break;
    int in_hand[MAXP], n_in_hand;
    int winners[MAXP], n_winners;
    uint8_t draw[DECK + 8];
    int draw_len;
    uint8_t discard[DECK + 8];
    int discard_len;
    Group melds[MAXMELD];
    int meld_owner[MAXMELD];
    int n_melds;
    SeatS seats[MAXP];
    MT rng;
} State;

/* ---------------------------------------------------------------- actions */

typedef struct {
    uint8_t ngroups;
    Group groups[MAXG];
} LayDown;

typedef struct {
    int type, card, arg, number; /* discard: arg = target (-1); hit: arg = meld */
    int lay;                     /* index into the lay-down list */
} Act;

typedef struct {
    Act *acts;
    int n, cap;
    LayDown *lays;
    int nlays, lcap;
    uint64_t *hashes; /* open addressing over lays (0: empty slot) */
    int *hslot;
    int hcap;
} ActList;

static int al_push(ActList *al, Act a) {
    if (al->n == al->cap) {
        int cap = al->cap ? al->cap * 2 : 64;
        Act *p = realloc(al->acts, sizeof(Act) * (size_t)cap);
        if (!p) return -1;
        al->acts = p;
        al->cap = cap;
    }
    al->acts[al->n++] = a;
    return 0;
}

static void al_free(ActList *al) {
    free(al->acts);
    free(al->lays);
    free(al->hashes);
    free(al->hslot);
    memset(al, 0, sizeof(*al));
}

/* ---------------------------------------------------------------- turn order */

static int in_hand(const State *s, int p) {
    for (int i = 0; i < s->n_in_hand; i++)
        if (s->in_hand[i] == p) return 1;
    return 0;
}

/* Rulebook._turn_order_from: the players in the hand after seat, seat last if in hand */
static int turn_order_from(const State *s, int seat, int *out) {
    int k = 0;
    for (int d = 1; d <= s->n; d++) {
        int p = (seat + d) % s->n;
        if (in_hand(s, p)) out[k++] = p;
    }
    return k;
}

static int next_in_hand(const State *s, int seat) {
    int order[MAXP];
    turn_order_from(s, seat, order);
    return order[0];
}

static int can_draw(const State *s) { return s->draw_len > 0 || s->discard_len >= 2; }
static int can_take(const State *s) {
    return s->discard_len > 0 && s->discard[s->discard_len - 1] != SKIP;
}

/* Rulebook.skip_targets (skip_target = "choose"): others in hand without a pending Skip,
 * in seat order */
static int skip_targets(const State *s, int seat, int *out) {
    int k = 0;
    for (int p = 0; p < s->n; p++)
        if (p != seat && in_hand(s, p) && !s->seats[p].pending_skip) out[k++] = p;
    return k;
}

/* the phase (0-based) seat may lay down now, or -1 */
static int allowed_phase(const State *s, int seat) {
    const SeatS *info = &s->seats[seat];
    if (info->laid >= 0) return -1;
    if (s->tie_break) return s->nphases - 1;
    return info->phase < s->nphases ? info->phase : -1;
}

/* ---------------------------------------------------------------- groups */

/* Group.placements: writes the numbers a card can take (0 for "no number"); returns how many */
static int placements(const Group *g, int card, int *spots) {
    if (card == SKIP) return 0;
    int natural = card < 48;
    if (g->kind == K_COLOR) {
        if (natural && card_color(card) != g->color) return 0;
        spots[0] = 0;
        return 1;
    }
    if (g->kind == K_SET) {
        if (natural && card_number(card) != g->number) return 0;
        spots[0] = 0;
        return 1;
    }
    int high = g->low + g->len - 1, k = 0;
    if (natural) {
        int num = card_number(card);
        if ((num == g->low - 1 && num >= 1) || (num == high + 1 && num <= 12)) {
            spots[0] = num;
            return 1;
        }
        return 0;
    }
    if (g->low - 1 >= 1) spots[k++] = g->low - 1;
    if (high + 1 <= 12) spots[k++] = high + 1;
    return k;
}

static int fits_somewhere(const State *s, int card) {
    int spots[2];
    for (int m = 0; m < s->n_melds; m++)
        if (placements(&s->melds[m], card, spots)) return 1;
    return 0;
}

static void sort_by_key(uint8_t *cards, int len) {
    for (int i = 1; i < len; i++) {
        uint8_t c = cards[i];
        int j = i - 1;
        while (j >= 0 && sort_key(cards[j]) > sort_key(c)) {
            cards[j + 1] = cards[j];
            j--;
        }
        cards[j + 1] = c;
    }
}

/* fill a group's number, low and colour from its cards (Group.make, the checks aside) */
static int group_values(Group *g) {
    g->number = 0;
    g->low = 0;
    g->color = -1;
    for (int i = 0; i < g->len; i++) {
        int c = g->cards[i];
        if (c >= 48) continue;
        if (g->kind == K_SET) g->number = (int8_t)card_number(c);
        if (g->kind == K_COLOR) g->color = (int8_t)card_color(c);
        if (g->kind == K_RUN) g->low = (int8_t)(card_number(c) - i);
        return 0;
    }
    return -1; /* all Wilds: not offered under natural_min = "group" */
}

/* _group_key order: -len, the cards' sort keys, number, low, colour letter */
static int group_cmp(const Group *a, const Group *b) {
    if (a->len != b->len) return a->len > b->len ? -1 : 1;
    for (int i = 0; i < a->len; i++) {
        int ka = sort_key(a->cards[i]), kb = sort_key(b->cards[i]);
        if (ka != kb) return ka < kb ? -1 : 1;
    }
    if (a->number != b->number) return a->number < b->number ? -1 : 1;
    if (a->low != b->low) return a->low < b->low ? -1 : 1;
    int ca = a->color >= 0 ? COLOR_RANK[a->color] : 0, cb = b->color >= 0 ? COLOR_RANK[b->color] : 0;
    return ca == cb ? 0 : (ca < cb ? -1 : 1);
}

/* canonical_lay_down: the groups in the phase's slot order, those of one kind matched
 * largest first. Returns 0, or -1 when they cannot fill the phase. */
static int canonical(const PhaseSpec *ph, const Group *in, Group *out) {
    Group by_kind[3][MAXG];
    int nk[3] = {0, 0, 0}, taken[3] = {0, 0, 0};
    for (int i = 0; i < ph->ngroups; i++) {
        int k = in[i].kind;
        int j = nk[k]++;
        while (j > 0 && group_cmp(&by_kind[k][j - 1], &in[i]) > 0) {
            by_kind[k][j] = by_kind[k][j - 1];
            j--;
        }
        by_kind[k][j] = in[i];
    }
    for (int d = 0; d < ph->ngroups; d++) {
        int slot = ph->order[d], k = ph->kind[slot];
        if (taken[k] >= nk[k]) return -1;
        const Group *g = &by_kind[k][taken[k]++];
        if (g->len < ph->size[slot]) return -1;
        out[slot] = *g;
    }
    return 0;
}

/* ---------------------------------------------------------------- lay-downs */

typedef struct {
    Group *items;
    int n, cap;
} GroupVec;

static int gv_push(GroupVec *v, const Group *g) {
    if (v->n == v->cap) {
        int cap = v->cap ? v->cap * 2 : 32;
        Group *p = realloc(v->items, sizeof(Group) * (size_t)cap);
        if (!p) return -1;
        v->items = p;
        v->cap = cap;
    }
    v->items[v->n++] = *g;
    return 0;
}

/* _subset_groups: some copies of each of cards[] (at least one), sorted, plus Wilds */
static int subset_groups(GroupVec *v, int kind, const int *cards, int ncards, const int *counts,
                         int size) {
    int avail[24], have[24], na = 0, total = 0, wilds = counts[WILD];
    for (int i = 0; i < ncards; i++)
        if (counts[cards[i]] > 0) {
            avail[na] = cards[i];
            have[na++] = counts[cards[i]];
            total += counts[cards[i]];
        }
    if (na == 0 || total + wilds < size) return 0;
    int taken[24];
    memset(taken, 0, sizeof(taken));
    for (;;) {
        /* the next choice of copies, odometer style (the last card turns fastest) */
        int i = na - 1;
        while (i >= 0 && taken[i] == have[i]) taken[i--] = 0;
        if (i < 0) break;
        taken[i]++;
        Group g;
        g.kind = (uint8_t)kind;
        int len = 0;
        for (int a = 0; a < na; a++)
            for (int t = 0; t < taken[a]; t++) g.cards[len++] = (uint8_t)avail[a];
        sort_by_key(g.cards, len);
        int naturals = len;
        for (int extra = size - naturals > 0 ? size - naturals : 0; extra <= wilds; extra++) {
            g.len = (uint8_t)(naturals + extra);
            for (int w = 0; w < extra; w++) g.cards[naturals + w] = WILD;
            group_values(&g);
            if (gv_push(v, &g)) return -1;
        }
    }
    return 0;
}

static int extend_run(GroupVec *v, const int *counts, int low, int number, Group *g,
                      int wilds_left, int naturals, int size) {
    if (number - low >= size && naturals) {
        g->len = (uint8_t)(number - low);
        group_values(g);
        if (gv_push(v, g)) return -1;
    }
    if (number > 12) return 0;
    int pos = number - low;
    for (int color = 0; color < 4; color++) {
        int c = color * 12 + number - 1;
        if (counts[c] > 0) {
            g->cards[pos] = (uint8_t)c;
            if (extend_run(v, counts, low, number + 1, g, wilds_left, naturals + 1, size))
                return -1;
        }
    }
    if (wilds_left) {
        g->cards[pos] = WILD;
        if (extend_run(v, counts, low, number + 1, g, wilds_left - 1, naturals, size)) return -1;
    }
    return 0;
}

/* group_candidates (natural_min = "group": no all-Wild group) */
static int candidates(GroupVec *v, int kind, int size, const int *counts) {
    v->n = 0;
    int cards[24];
    if (kind == K_SET) {
        for (int number = 1; number <= 12; number++) {
            for (int color = 0; color < 4; color++) cards[color] = color * 12 + number - 1;
            if (subset_groups(v, kind, cards, 4, counts, size)) return -1;
        }
    } else if (kind == K_COLOR) {
        for (int color = 0; color < 4; color++) {
            for (int i = 0; i < 12; i++) cards[i] = color * 12 + i;
            if (subset_groups(v, kind, cards, 12, counts, size)) return -1;
        }
    } else {
        Group g;
        g.kind = K_RUN;
        for (int low = 1; low < 14 - size; low++)
            if (extend_run(v, counts, low, low, &g, counts[WILD], 0, size)) return -1;
    }
    return 0;
}

static uint64_t lay_hash(const LayDown *ld) {
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < ld->ngroups; i++) {
        const Group *g = &ld->groups[i];
        h = (h ^ g->kind) * 1099511628211ull;
        h = (h ^ g->len) * 1099511628211ull;
        for (int j = 0; j < g->len; j++) h = (h ^ g->cards[j]) * 1099511628211ull;
    }
    return h | 1;
}

static int lay_equal(const LayDown *a, const LayDown *b) {
    if (a->ngroups != b->ngroups) return 0;
    for (int i = 0; i < a->ngroups; i++) {
        const Group *x = &a->groups[i], *y = &b->groups[i];
        if (x->kind != y->kind || x->len != y->len || memcmp(x->cards, y->cards, x->len)) return 0;
    }
    return 1;
}

static int hash_grow(ActList *al) {
    int cap = al->hcap ? al->hcap * 2 : 256;
    uint64_t *h = calloc((size_t)cap, sizeof(uint64_t));
    int *slot = malloc(sizeof(int) * (size_t)cap);
    if (!h || !slot) {
        free(h);
        free(slot);
        return -1;
    }
    for (int i = 0; i < al->hcap; i++)
        if (al->hashes[i]) {
            int j = (int)(al->hashes[i] & (uint64_t)(cap - 1));
            while (h[j]) j = (j + 1) & (cap - 1);
            h[j] = al->hashes[i];
            slot[j] = al->hslot[i];
        }
    free(al->hashes);
    free(al->hslot);
    al->hashes = h;
    al->hslot = slot;
    al->hcap = cap;
    return 0;
}

/* add a canonical lay-down unless it is there already */
static int add_lay(ActList *al, const LayDown *ld) {
    if ((al->nlays + 1) * 2 > al->hcap && hash_grow(al)) return -1;
    uint64_t h = lay_hash(ld);
    int j = (int)(h & (uint64_t)(al->hcap - 1));
    while (al->hashes[j]) {
        if (al->hashes[j] == h && lay_equal(&al->lays[al->hslot[j]], ld)) return 0;
        j = (j + 1) & (al->hcap - 1);
    }
    if (al->nlays == al->lcap) {
        int cap = al->lcap ? al->lcap * 2 : 16;
        LayDown *p = realloc(al->lays, sizeof(LayDown) * (size_t)cap);
        if (!p) return -1;
        al->lays = p;
        al->lcap = cap;
    }
    al->hashes[j] = h;
    al->hslot[j] = al->nlays;
    al->lays[al->nlays++] = *ld;
    return 0;
}

typedef struct {
    const PhaseSpec *ph;
    int counts[NCARDS];
    Group chosen[MAXG];
    GroupVec vecs[MAXG];
    ActList *out;
    int stop_at_first, found;
} Search;

/* _LayDownSearch.place: every slot filled in slot order, each distinct result once */
static int place(Search *S, int depth) {
    const PhaseSpec *ph = S->ph;
    if (S->stop_at_first && S->found) return 0;
    if (depth == ph->ngroups) {
        LayDown ld;
        ld.ngroups = (uint8_t)ph->ngroups;
        if (canonical(ph, S->chosen, ld.groups)) return 0;
        S->found = 1;
        return S->out ? add_lay(S->out, &ld) : 0;
    }
    int slot = ph->order[depth];
    GroupVec *v = &S->vecs[depth];
    if (candidates(v, ph->kind[slot], ph->size[slot], S->counts)) return -1;
    for (int i = 0; i < v->n; i++) {
        const Group *g = &v->items[i];
        for (int j = 0; j < g->len; j++) S->counts[g->cards[j]]--;
        S->chosen[slot] = *g;
        int err = place(S, depth + 1);
        for (int j = 0; j < g->len; j++) S->counts[g->cards[j]]++;
        if (err) return -1;
        if (S->stop_at_first && S->found) return 0;
    }
    return 0;
}

static int lay_downs(const PhaseSpec *ph, const int *counts, ActList *out) {
    Search S;
    memset(&S, 0, sizeof(S));
    S.ph = ph;
    memcpy(S.counts, counts, sizeof(S.counts));
    S.out = out;
    int err = place(&S, 0);
    for (int i = 0; i < MAXG; i++) free(S.vecs[i].items);
    return err;
}

/* ---------------------------------------------------------------- can_lay */

/* feasibility.can_lay for phases of sets and runs (numbers alone matter) and for one colour
 * group: whether the counts can make the phase. Minimal groups only; the slots in order[],
 * the last one answered at once (with nothing after it, it takes every natural it can). */
static int can_sets_runs(const PhaseSpec *ph, const int *order, int depth, int *nums, int wilds) {
    int slot = order[depth], size = ph->size[slot], last = depth == ph->ngroups - 1;
    if (ph->kind[slot] == K_SET) {
        for (int k = 1; k <= 12; k++) {
            if (last) {
                if (nums[k] >= 1 && nums[k] + wilds >= size) return 1;
                continue;
            }
            for (int j = 1; j <= nums[k] && j <= size; j++) {
                if (size - j > wilds) continue;
                nums[k] -= j;
                int ok = can_sets_runs(ph, order, depth + 1, nums, wilds - (size - j));
                nums[k] += j;
                if (ok) return 1;
            }
        }
        return 0;
    }
    for (int low = 1; low + size - 1 <= 12; low++) {
        int places[12], nat_avail = 0;
        for (int i = 0; i < size; i++) {
            places[i] = nums[low + i] > 0;
            nat_avail += places[i];
        }
        if (!nat_avail) continue;
        if (last) {
            if (size - nat_avail <= wilds) return 1;
            continue;
        }
        /* every choice of natural-or-Wild per place, at least one natural */
        for (uint32_t mask = 1; mask < (1u << size); mask++) {
            int ok = 1, used_w = 0;
            for (int i = 0; i < size; i++)
                if ((mask >> i) & 1u) {
                    if (!places[i]) ok = 0;
                } else
                    used_w++;
            if (!ok || used_w > wilds) continue;
            for (int i = 0; i < size; i++)
                if ((mask >> i) & 1u) nums[low + i]--;
            ok = can_sets_runs(ph, order, depth + 1, nums, wilds - used_w);
            for (int i = 0; i < size; i++)
                if ((mask >> i) & 1u) nums[low + i]++;
            if (ok) return 1;
        }
    }
    return 0;
}

static int can_lay(const PhaseSpec *ph, const int *counts) {
    if (ph->ngroups == 1 && ph->kind[0] == K_COLOR) {
        for (int color = 0; color < 4; color++) {
            int n = 0;
            for (int i = 0; i < 12; i++) n += counts[color * 12 + i];
            if (n >= 1 && n + counts[WILD] >= ph->size[0]) return 1;
        }
        return 0;
    }
    int nums[13] = {0}, order[MAXG], k = 0;
    for (int c = 0; c < 48; c++) nums[card_number(c)] += counts[c];
    for (int i = 0; i < ph->ngroups; i++) /* the sets first: they branch the least */
        if (ph->kind[i] == K_SET) order[k++] = i;
    for (int i = 0; i < ph->ngroups; i++)
        if (ph->kind[i] != K_SET) order[k++] = i;
    return can_sets_runs(ph, order, 0, nums, counts[WILD]);
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

static void end_game(State *s, const int *winners, int n) {
    memcpy(s->winners, winners, sizeof(int) * (size_t)n);
    s->n_winners = n;
    s->stage = ST_OVER;
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
static void end_hand(State *s, int went_out) {
    if (!s->tie_break) {
        for (int i = 0; i < s->n_in_hand; i++) {
            int p = s->in_hand[i];
            SeatS *info = &s->seats[p];
            info->score += p == went_out ? 0 : hand_points(info);
            if (info->laid >= 0) {
                info->completed |= 1u << info->laid;
                info->phase = lowest_open(s, info->completed);
            }
        }
    }
    if (s->tie_break) {
        if (went_out >= 0) {
            end_game(s, &went_out, 1);
            return;
        }
        next_hand(s, s->in_hand, s->n_in_hand);
        return;
    }
    /* standings.decide */
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
        end_game(s, finishers, 1);
        return;
    }
    int best = s->seats[finishers[0]].score;
    for (int i = 1; i < nf; i++)
        if (s->seats[finishers[i]].score < best) best = s->seats[finishers[i]].score;
    int tied[MAXP], nt = 0;
    for (int i = 0; i < nf; i++)
        if (s->seats[finishers[i]].score == best) tied[nt++] = finishers[i];
    if (nt == 1) {
        end_game(s, tied, 1);
        return;
    }
    s->tie_break = 1;
    next_hand(s, tied, nt);
}

/* Game.hand_is_dead */
static int hand_is_dead(const State *s) {
    int counts[NCARDS] = {0};
    for (int p = 0; p < s->n; p++)
        for (int i = 0; i < s->seats[p].hand_len; i++) counts[s->seats[p].hand[i]]++;
    for (int i = 0; i < s->draw_len; i++) counts[s->draw[i]]++;
    for (int i = 0; i < s->discard_len; i++) counts[s->discard[i]]++;
    for (int c = 0; c < NCARDS; c++)
        if (counts[c] && fits_somewhere(s, c)) return 0;
    for (int i = 0; i < s->n_in_hand; i++) {
        int phase = allowed_phase(s, s->in_hand[i]);
        if (phase >= 0 && can_lay(&s->phases[phase], counts)) return 0;
    }
    return 1;
}

/* Game._begin_turn */
static void begin_turn(State *s) {
    while (s->seats[s->current].pending_skip) {
        s->seats[s->current].pending_skip = 0;
        s->current = next_in_hand(s, s->current);
    }
    if (!can_draw(s) && !can_take(s)) {
        end_hand(s, -1);
        return;
    }
    if (s->draw_len == 0 && hand_is_dead(s)) {
        end_hand(s, -1);
        return;
    }
    s->stage = ST_DRAW;
}

/* Game._start_hand (no arrangement, no save piles, the first player takes a Wild turned up) */
static void start_hand(State *s) {
    s->hand_number++;
    for (int p = 0; p < s->n; p++) {
        SeatS *info = &s->seats[p];
        info->hand_len = 0;
        info->laid = -1;
        info->pending_skip = 0;
    }
    s->n_melds = 0;
    uint8_t deck[DECK];
    int len = 0;
    for (int c = 0; c < 48; c++) deck[len++] = (uint8_t)c, deck[len++] = (uint8_t)c;
    for (int i = 0; i < 8; i++) deck[len++] = WILD;
    for (int i = 0; i < 4; i++) deck[len++] = SKIP;
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
    if (s->discard[0] == SKIP) s->seats[first].pending_skip = 1;
    s->current = first;
    begin_turn(s);
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

static void do_draw(State *s, int seat) {
    if (s->draw_len == 0 && s->discard_len >= 2) { /* Game._refill_draw_pile */
        uint8_t top = s->discard[s->discard_len - 1];
        memcpy(s->draw, s->discard, (size_t)(s->discard_len - 1));
        s->draw_len = s->discard_len - 1;
        mt_shuffle(&s->rng, s->draw, s->draw_len);
        s->discard[0] = top;
        s->discard_len = 1;
    }
    SeatS *info = &s->seats[seat];
    info->hand[info->hand_len++] = s->draw[--s->draw_len];
    s->stage = ST_PLAY;
}

static void do_discard(State *s, int seat, int card, int target) {
    SeatS *info = &s->seats[seat];
    hand_remove(info, card);
    s->discard[s->discard_len++] = (uint8_t)card;
    if (target >= 0 && card == SKIP) s->seats[target].pending_skip = 1;
    if (info->hand_len == 0) {
        end_hand(s, seat);
        return;
    }
    s->current = next_in_hand(s, s->current);
    begin_turn(s);
}

static void do_hit(State *s, int seat, int card, int m, int number) {
    SeatS *info = &s->seats[seat];
    hand_remove(info, card);
    Group *g = &s->melds[m];
    if (g->kind != K_RUN) {
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
    if (info->hand_len == 0) end_hand(s, seat);
}

static void do_lay(State *s, int seat, const LayDown *ld) {
    SeatS *info = &s->seats[seat];
    int index = allowed_phase(s, seat);
    for (int i = 0; i < ld->ngroups; i++) {
        const Group *g = &ld->groups[i];
        for (int j = 0; j < g->len; j++) hand_remove(info, g->cards[j]);
        s->melds[s->n_melds] = *g;
        s->meld_owner[s->n_melds++] = seat;
    }
    info->laid = index;
    if (info->hand_len == 0) end_hand(s, seat);
}

static void apply_act(State *s, const Act *a, const LayDown *lays) {
    int seat = s->current;
    switch (a->type) {
    case A_DRAW:
        do_draw(s, seat);
        break;
    case A_TAKE: {
        SeatS *info = &s->seats[seat];
        info->hand[info->hand_len++] = s->discard[--s->discard_len];
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
    }
}

/* ---------------------------------------------------------------- enumeration */

/* the order lay-downs are listed in: group by group, kind, size, then the cards' indices
 * (convert.lay_down_order) */
static int lay_cmp(const void *pa, const void *pb) {
    const LayDown *a = pa, *b = pb;
    for (int i = 0; i < a->ngroups; i++) {
        const Group *x = &a->groups[i], *y = &b->groups[i];
        if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
        if (x->len != y->len) return x->len < y->len ? -1 : 1;
        int c = memcmp(x->cards, y->cards, x->len);
        if (c) return c;
    }
    return 0;
}

/* Rulebook._generate: lay-downs, hits, then discards, each card once in sort-key order */
static int legal(const State *s, ActList *al) {
    al->n = 0;
    if (al->nlays) memset(al->hashes, 0, sizeof(uint64_t) * (size_t)al->hcap);
    al->nlays = 0;
    Act a = {0, 0, -1, -1, -1};
    if (s->stage == ST_OVER) return 0;
    if (s->stage == ST_DRAW) {
        if (can_draw(s)) {
            a.type = A_DRAW;
            if (al_push(al, a)) return -1;
        }
        if (can_take(s)) {
            a.type = A_TAKE;
            if (al_push(al, a)) return -1;
        }
        return 0;
    }
    int seat = s->current;
    const SeatS *info = &s->seats[seat];
    int counts[NCARDS] = {0};
    for (int i = 0; i < info->hand_len; i++) counts[info->hand[i]]++;
    int phase = allowed_phase(s, seat);
    /* most hands hold no phase: the quick exact test spares them the search */
    if (phase >= 0 && can_lay(&s->phases[phase], counts)) {
        if (lay_downs(&s->phases[phase], counts, al)) return -1;
        qsort(al->lays, (size_t)al->nlays, sizeof(LayDown), lay_cmp);
        for (int i = 0; i < al->nlays; i++) {
            a.type = A_LAY;
            a.lay = i;
            if (al_push(al, a)) return -1;
        }
        a.lay = -1;
    }
    static int by_key[NCARDS];
    static int by_key_ready = 0;
    if (!by_key_ready) { /* the card indices in sort-key order */
        for (int c = 0; c < NCARDS; c++) {
            int j = c;
            while (j > 0 && sort_key(by_key[j - 1]) > sort_key(c)) {
                by_key[j] = by_key[j - 1];
                j--;
            }
            by_key[j] = c;
        }
        by_key_ready = 1;
    }
    if (info->laid >= 0)
        for (int i = 0; i < NCARDS; i++) {
            int c = by_key[i];
            if (!counts[c]) continue;
            for (int m = 0; m < s->n_melds; m++) {
                int spots[2], k = placements(&s->melds[m], c, spots);
                for (int j = 0; j < k; j++) {
                    a.type = A_HIT;
                    a.card = c;
                    a.arg = m;
                    a.number = c == WILD ? spots[j] : 0;
                    if (al_push(al, a)) return -1;
                }
            }
        }
    a.number = -1;
    for (int i = 0; i < NCARDS; i++) {
        int c = by_key[i];
        if (!counts[c]) continue;
        a.type = A_DISCARD;
        a.card = c;
        a.arg = -1;
        if (c == SKIP) {
            int targets[MAXP], k = skip_targets(s, seat, targets);
            for (int j = 0; j < k; j++) {
                a.arg = targets[j];
                if (al_push(al, a)) return -1;
            }
            if (k) continue;
            a.arg = -1;
        }
        if (al_push(al, a)) return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- determinizing */

/* Deal the cards the viewer cannot see afresh: every other player's hand but the cards
 * known[p] says they are known to hold, and the draw pile, shuffled together (by x) and
 * dealt back in the same numbers; the game's generator is seeded anew from x, since the
 * viewer cannot know it either. */
static void determinize(State *s, int viewer, int known[MAXP][NCARDS], uint64_t *x) {
    uint8_t pool[DECK + 8];
    int len = 0, drawn[MAXP];
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
    }
    memcpy(pool + len, s->draw, (size_t)s->draw_len);
    len += s->draw_len;
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
    }
    s->draw_len = len - pos;
    memcpy(s->draw, pool + pos, (size_t)s->draw_len);
    mt_seed(&s->rng, splitmix(x));
}

/* uniformly random legal actions until the game ends or max_actions (-1: no limit) */
static long long play_random(State *s, ActList *al, uint64_t *x, long long max_actions) {
    long long done = 0;
    while (s->stage != ST_OVER && (max_actions < 0 || done < max_actions)) {
        if (legal(s, al) || al->n == 0) break;
        int i = (int)(splitmix(x) % (uint64_t)al->n);
        Act a = al->acts[i];
        LayDown ld;
        if (a.type == A_LAY) {
            ld = al->lays[a.lay];
            a.lay = 0;
        }
        apply_act(s, &a, &ld);
        done++;
    }
    return done;
}

/* ---------------------------------------------------------------- the Python type */

typedef struct {
    PyObject_HEAD State s;
    ActList al;
    int al_valid; /* al holds the legal actions of s */
} KernelObject;

static int ensure_legal(KernelObject *self) {
    if (self->al_valid) return 0;
    if (legal(&self->s, &self->al)) {
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
    return Py_BuildValue("(iN)", g->kind, cards);
}

static PyObject *act_to_tuple(const Act *a, const ActList *al) {
    switch (a->type) {
    case A_DRAW:
    case A_TAKE:
        return Py_BuildValue("(i)", a->type);
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
static int read_group(PyObject *item, Group *g) {
    PyObject *cards;
    int kind;
    if (!PyArg_ParseTuple(item, "iO", &kind, &cards)) return -1;
    if (kind < 0 || kind > 2) {
        PyErr_Format(PyExc_ValueError, "no group kind %d", kind);
        return -1;
    }
    int n = read_cards(cards, g->cards, MAXGC, "a group's cards");
    if (n < 0) return -1;
    g->kind = (uint8_t)kind;
    g->len = (uint8_t)n;
    if (group_values(g)) {
        PyErr_SetString(PyExc_ValueError, "an all-Wild group is not supported by the kernel");
        return -1;
    }
    return 0;
}

static int Kernel_init(KernelObject *self, PyObject *args, PyObject *kwds) {
    int n;
    PyObject *phases;
    static char *kwlist[] = {"players", "phases", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iO", kwlist, &n, &phases)) return -1;
    if (n < 2 || n > MAXP) {
        PyErr_Format(PyExc_ValueError, "the kernel plays 2 to %d players, not %d", MAXP, n);
        return -1;
    }
    al_free(&self->al);
    memset(&self->s, 0, sizeof(State));
    self->al_valid = 0;
    State *s = &self->s;
    s->n = n;
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
            if (kind < 0 || kind > 2 || size < 1 || size > 11) {
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
        PyObject *item = Py_BuildValue("(iiN)", s->meld_owner[m], g->kind, cards_tuple(g->cards, g->len));
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
        PyObject *item = Py_BuildValue("(NiikiO)", cards_tuple(info->hand, info->hand_len),
                                       info->score, info->phase, (unsigned long)info->completed,
                                       info->laid, info->pending_skip ? Py_True : Py_False);
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
    return Py_BuildValue("(iiiiNONiNNNNN)", s->hand_number, s->dealer, s->current, s->stage,
                         ints_tuple(s->in_hand, s->n_in_hand), s->tie_break ? Py_True : Py_False,
                         ints_tuple(s->winners, s->n_winners), s->first_player,
                         cards_tuple(s->draw, s->draw_len), cards_tuple(s->discard, s->discard_len),
                         melds, seats, mt);
}

static PyObject *Kernel_load(KernelObject *self, PyObject *arg) {
    State t = self->s; /* filled in a copy: the kernel is unchanged if the state is refused */
    PyObject *in_hand, *winners, *draw, *discard, *melds, *seats, *mt;
    int tie_break;
    if (!PyArg_ParseTuple(arg, "iiiiOpOiOOOOO", &t.hand_number, &t.dealer, &t.current, &t.stage,
                          &in_hand, &tie_break, &winners, &t.first_player, &draw, &discard, &melds,
                          &seats, &mt))
        return NULL;
    t.tie_break = tie_break;
    if (t.stage < ST_DRAW || t.stage > ST_OVER) return PyErr_Format(PyExc_ValueError, "no stage %d", t.stage);
    if (t.current < 0 || t.current >= t.n || t.dealer < 0 || t.dealer >= t.n)
        return PyErr_Format(PyExc_ValueError, "no seat %d", t.current);
    if ((t.n_in_hand = read_ints(in_hand, t.in_hand, t.n, "players in hand")) < 0) return NULL;
    if ((t.n_winners = read_ints(winners, t.winners, t.n, "winners")) < 0) return NULL;
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
        int owner, kind;
        PyObject *cards;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, m), "iiO", &owner, &kind, &cards)) {
            Py_DECREF(fast);
            return NULL;
        }
        PyObject *pair = Py_BuildValue("(iO)", kind, cards);
        int err = pair ? read_group(pair, &t.melds[m]) : -1;
        Py_XDECREF(pair);
        if (err) {
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
        int pending;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, p), "Oiikip", &hand, &info->score,
                              &info->phase, &completed, &info->laid, &pending)) {
            Py_DECREF(fast);
            return NULL;
        }
        info->completed = (uint32_t)completed;
        info->pending_skip = pending;
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

/* apply the i-th legal action (the list is up to date) */
static void apply_legal(KernelObject *self, int i) {
    Act a = self->al.acts[i];
    LayDown ld;
    if (a.type == A_LAY) {
        ld = self->al.lays[a.lay];
        a.lay = 0;
    }
    self->al_valid = 0;
    apply_act(&self->s, &a, &ld);
}

static PyObject *Kernel_apply_index(KernelObject *self, PyObject *arg) {
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (ensure_legal(self)) return NULL;
    if (i < 0 || i >= self->al.n)
        return PyErr_Format(PyExc_IndexError, "action %ld of %d legal actions", i, self->al.n);
    apply_legal(self, (int)i);
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
    if (type == A_DISCARD && !PyArg_ParseTuple(arg, "iii", &type, &want.card, &want.arg)) return NULL;
    if (type == A_HIT && !PyArg_ParseTuple(arg, "iiii", &type, &want.card, &want.arg, &want.number))
        return NULL;
    if (type == A_LAY) {
        PyObject *groups;
        if (!PyArg_ParseTuple(arg, "iO", &type, &groups)) return NULL;
        PyObject *fast = PySequence_Fast(groups, "a lay-down's groups");
        if (!fast) return NULL;
        Py_ssize_t ng = PySequence_Fast_GET_SIZE(fast);
        Group in[MAXG];
        int phase = allowed_phase(&self->s, self->s.current);
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
        if (type == A_HIT && (a->card != want.card || a->arg != want.arg || a->number != want.number))
            continue;
        if (type == A_LAY && !lay_equal(&self->al.lays[a->lay], &ld)) continue;
        apply_legal(self, i);
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
    Py_BEGIN_ALLOW_THREADS;
    while (self->s.stage != ST_OVER && (max_actions < 0 || done < max_actions)) {
        if (!self->al_valid) {
            if (legal(&self->s, &self->al)) break;
            self->al_valid = 1;
        }
        if (self->al.n == 0) break;
        int i = (int)(splitmix(&x) % (uint64_t)self->al.n);
        if (record) {
            Py_BLOCK_THREADS;
            PyObject *t = act_to_tuple(&self->al.acts[i], &self->al);
            int err = !t || PyList_Append(chosen, t);
            Py_XDECREF(t);
            Py_UNBLOCK_THREADS;
            if (err) break;
        }
        apply_legal(self, i);
        done++;
    }
    Py_END_ALLOW_THREADS;
    if (PyErr_Occurred()) {
        Py_XDECREF(chosen);
        return NULL;
    }
    if (record) return Py_BuildValue("(LN)", done, chosen);
    return Py_BuildValue("(LO)", done, Py_None);
}

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
    Py_BEGIN_ALLOW_THREADS;
    ActList al;
    memset(&al, 0, sizeof(al));
    for (int i = 0; i < count; i++) {
        ends[i] = self->s;
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

static PyTypeObject KernelType;

static PyObject *Kernel_copy(KernelObject *self, PyObject *Py_UNUSED(ignored)) {
    KernelObject *twin = PyObject_New(KernelObject, &KernelType);
    if (!twin) return NULL;
    twin->s = self->s;
    memset(&twin->al, 0, sizeof(ActList));
    twin->al_valid = 0;
    return (PyObject *)twin;
}

static PyObject *Kernel_get_stage(KernelObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->s.stage);
}

static PyObject *Kernel_get_current(KernelObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->s.current);
}

static PyMethodDef Kernel_methods[] = {
    {"dump", (PyCFunction)Kernel_dump, METH_NOARGS, "The state as plain tuples."},
    {"load", (PyCFunction)Kernel_load, METH_O, "Replace the state (as dump gives it)."},
    {"legal", (PyCFunction)Kernel_legal, METH_NOARGS, "The legal actions as tuples."},
    {"apply", (PyCFunction)Kernel_apply, METH_O, "Apply a legal action given as a tuple."},
    {"apply_index", (PyCFunction)Kernel_apply_index, METH_O, "Apply the i-th legal action."},
    {"play_random", (PyCFunction)(void (*)(void))Kernel_play_random, METH_VARARGS | METH_KEYWORDS,
     "Play uniformly random legal actions; (actions played, the actions or None)."},
    {"copy", (PyCFunction)Kernel_copy, METH_NOARGS, "An independent copy."},
    {"determinize", (PyCFunction)Kernel_determinize, METH_VARARGS,
     "Deal the cards the viewer cannot see afresh (viewer, known, seed)."},
    {"playouts", (PyCFunction)Kernel_playouts, METH_VARARGS,
     "Random play-outs from fresh determinizations: (winners, scores, actions) each."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Kernel_getset[] = {
    {"stage", (getter)Kernel_get_stage, NULL, "0 draw, 1 play, 2 game over", NULL},
    {"current", (getter)Kernel_get_current, NULL, "the seat to move", NULL},
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

static struct PyModuleDef kernel_module = {PyModuleDef_HEAD_INIT, "_kernel",
                                           "The compiled Phase 10 simulation kernel.", -1, NULL,
                                           NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__kernel(void) {
    if (PyType_Ready(&KernelType) < 0) return NULL;
    PyObject *m = PyModule_Create(&kernel_module);
    if (!m) return NULL;
    Py_INCREF(&KernelType);
    if (PyModule_AddObject(m, "Kernel", (PyObject *)&KernelType) < 0) {
        Py_DECREF(&KernelType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
