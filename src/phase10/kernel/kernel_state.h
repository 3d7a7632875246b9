/* Cards, the random generators, the state, turn order and groups.
 * Part of _kernel.c, which includes it: the kernel is one compilation unit. */
#ifndef PHASE10_KERNEL_STATE_H
#define PHASE10_KERNEL_STATE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Bit tricks: the compiler's own where it has them, plain C elsewhere. PHASE10_PLAIN_C
 * forces the plain C, so that a GCC build can check the path other compilers take. */
#if !defined(PHASE10_PLAIN_C) && (defined(__GNUC__) || defined(__clang__))
static int lowest_bit(uint64_t x) { return __builtin_ctzll(x); } /* x != 0 */
static int bit_count(uint32_t x) { return __builtin_popcount(x); }
#else
#if !defined(PHASE10_PLAIN_C) && defined(_MSC_VER) && (defined(_M_X64) || defined(_M_ARM64))
#include <intrin.h>
static int lowest_bit(uint64_t x) { /* x != 0 */
    unsigned long at;
    _BitScanForward64(&at, x);
    return (int)at;
}
#else
static int lowest_bit(uint64_t x) { /* x != 0 */
    int at = 0;
    while (!(x & 0xffffffffu)) x >>= 32, at += 32;
    while (!(x & 1u)) x >>= 1, at++;
    return at;
}
#endif
static int bit_count(uint32_t x) { /* (not __popcnt: it needs a CPU with POPCNT) */
    int count = 0;
    for (; x; x &= x - 1) count++;
    return count;
}
#endif

#define WILD 48
#define SKIP 49
#define ANTI 50 /* the Anti-phase card (anti_phase = "on") */
#define NCARDS 51
#define MAXP 6
#define MAXHAND 16
#define DECK 112 /* the most cards a deck holds (110, and room) */
#define MAXGC 40     /* cards one group on the table can hold */
#define MAXG 11      /* groups one phase can ask for (a phase needs at most 11 cards) */
#define MAXPH 10
#define MAXMELD (MAXP * MAXG)
#define K_COLOR 0
#define K_COLOR_EVEN_ODD 1
#define K_COLOR_RUN 2
#define K_EVEN_ODD 3
#define K_RUN 4
#define K_SET 5
#define NKINDS 6
#define ST_DRAW 0
#define ST_PLAY 1
#define ST_OVER 2
#define ST_GIVE_WILD 3
#define ST_WILD_DISCARD 4
#define ST_DECLARE 5
#define A_DRAW 0
#define A_TAKE 1
#define A_DISCARD 2
#define A_HIT 3
#define A_LAY 4
#define A_GIVE 5
#define A_SAVE 6
#define A_TAKE_SAVED 7
#define A_DECLARE 8 /* arg: the phase, 1-based */
#define A_GIVE_UP 9

/* ---------------------------------------------------------------- cards */

static int card_number(int c) { return c < 48 ? c % 12 + 1 : 0; }
static int card_color(int c) { return c < 48 ? c / 12 : -1; }
static int card_points(int c) {
    if (c == WILD) return 25;
    if (c == SKIP || c == ANTI) return 15;
    return card_number(c) <= 9 ? 5 : 10;
}
/* Card.sort_key: number, then colour; the Wild, the Skip, the Anti-phase card after them */
static int sort_key(int c) {
    if (c < 48) return card_number(c) * 4 + card_color(c);
    return c == WILD ? 13 * 4 : c == SKIP ? 14 * 4 : 15 * 4;
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
    int8_t number, low, color, parity; /* 0 / -1 when the kind has none; parity 0 even, 1 odd */
    uint8_t cards[MAXGC];
} Group;

typedef struct {
    uint8_t hand[MAXHAND];
    int hand_len;
    int score, phase, laid; /* laid: -1 none */
    uint32_t completed;     /* bit i: phase i completed */
    int pending_skip;
    int floating; /* going_out = "discard": the hand emptied without a discard */
    int declared; /* the phase (0-based) named for this hand (declare = "deal"), or -1 */
    uint8_t saved[DECK]; /* the save pile, oldest first */
    int saved_len;
    int saved_this_hand;
    int gave_up; /* gave up a laid phase this hand (give_up) */
    int refill;  /* gave it up this turn: draws back up to ten at the turn's end */
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
    /* the rule options the kernel plays besides the official ones */
    int skip_next;    /* skip_target = "next" */
    int end_on_empty; /* empty_draw_pile = "end_hand" */
    int end_at_once;  /* end_when = "immediately" */
    int advance_all;  /* advance = "all" */
    int dealer_gives_wild; /* wild_deal_up = "dealer_chooses" */
    int floating_rule;     /* going_out = "discard" */
    int any_order;         /* phase_order = "any" (named as laid down) */
    int all_wild;          /* natural_min = "phase": groups of Wilds alone may be laid */
    void *log;             /* a Python list the events go to, or NULL (see _kernel.c) */
    int wilds, skips;      /* the deck's Wilds and Skips (two of each numbered card) */
    int declare_deal;      /* declare = "deal": phases named after the deal */
    int queue[MAXP], n_queue; /* the players still to declare, next first */
    int save_pile;            /* 0 off, 1 private, 2 public */
    int saved_penalty;        /* saved_score = "penalty" */
    int give_up;              /* 0 off, 1 forfeit, 2 keep */
    int antis;                /* the Anti-phase cards in the deck: 0 or 1 */
    /* what the bots know (phase10.bots.knowledge), kept for the greedy policy: */
    int hand_events;               /* this hand's events so far (len(view.history)) */
    int16_t held[MAXP][NCARDS];    /* HeldTracker.counts: cards taken from the discard pile */
    uint8_t held_on[MAXP];         /* HeldTracker.started */
} State;

/* ---------------------------------------------------------------- actions */

typedef struct {
    uint8_t ngroups;
    int8_t phase; /* the phase it names (1-based; phases in any order), or 0 */
    Group groups[MAXG];
    int found; /* its place in the engine's own list (the search's order): ties go first */
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

/* Rulebook.skip_targets: "choose", the others in hand without a pending Skip in seat order;
 * "next", the next player in turn order unless a Skip waits for them already */
static int skip_targets(const State *s, int seat, int *out) {
    int k = 0;
    if (s->skip_next) {
        int nxt = next_in_hand(s, seat);
        if (nxt == seat || s->seats[nxt].pending_skip) return 0;
        out[0] = nxt;
        return 1;
    }
    for (int p = 0; p < s->n; p++)
        if (p != seat && in_hand(s, p) && !s->seats[p].pending_skip) out[k++] = p;
    return k;
}

/* Rulebook.allowed_phases: the phases (0-based) seat may lay down now, into out */
static int allowed_phases(const State *s, int seat, int *out) {
    const SeatS *info = &s->seats[seat];
    if (info->laid >= 0) return 0;
    if (s->tie_break) {
        out[0] = s->nphases - 1;
        return 1;
    }
    if (s->any_order && s->declare_deal) {
        if (info->declared < 0) return 0;
        out[0] = info->declared;
        return 1;
    }
    if (s->any_order) {
        int k = 0;
        for (int i = 0; i < s->nphases; i++)
            if (!((info->completed >> i) & 1u)) out[k++] = i;
        return k;
    }
    if (info->phase >= s->nphases) return 0;
    out[0] = info->phase;
    return 1;
}

/* Rulebook.names_phase_when_laid */
static int names_phase(const State *s) {
    return s->any_order && !s->declare_deal && !s->tie_break;
}

/* GroupKind.is_run, needs_color, needs_parity */
static int is_run_kind(int k) { return k == K_RUN || k == K_COLOR_RUN; }
static int needs_color(int k) { return k == K_COLOR || k == K_COLOR_RUN || k == K_COLOR_EVEN_ODD; }
static int needs_parity(int k) { return k == K_EVEN_ODD || k == K_COLOR_EVEN_ODD; }

/* ---------------------------------------------------------------- groups */

/* Group.placements: writes the numbers a card can take (0 for "no number"); returns how many */
static int placements(const Group *g, int card, int *spots) {
    if (card == SKIP || card == ANTI) return 0;
    int natural = card < 48;
    if (g->color >= 0 && natural && card_color(card) != g->color) return 0;
    if (g->parity >= 0 && natural && card_number(card) % 2 != g->parity) return 0;
    if (g->kind == K_SET && natural && card_number(card) != g->number) return 0;
    if (!is_run_kind(g->kind)) {
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
    g->parity = -1;
    for (int i = 0; i < g->len; i++) {
        int c = g->cards[i];
        if (c >= 48) continue;
        if (g->kind == K_SET) g->number = (int8_t)card_number(c);
        if (needs_color(g->kind)) g->color = (int8_t)card_color(c);
        if (needs_parity(g->kind)) g->parity = (int8_t)(card_number(c) % 2);
        if (is_run_kind(g->kind)) g->low = (int8_t)(card_number(c) - i);
        return 0;
    }
    return -1; /* all Wilds: their values are declared */
}

/* a group of Wilds alone: its declared value, -1 for a group with a numbered card. A set's
 * number, a run's low, a colour's index, a parity (0 even, 1 odd); a colour run's
 * low * 4 + colour, a colour even/odd group's colour * 2 + parity */
static int wild_value(const Group *g) {
    for (int i = 0; i < g->len; i++)
        if (g->cards[i] < 48) return -1;
    switch (g->kind) {
    case K_SET:
        return g->number;
    case K_RUN:
        return g->low;
    case K_COLOR:
        return g->color;
    case K_EVEN_ODD:
        return g->parity;
    case K_COLOR_RUN:
        return g->low * 4 + g->color;
    default:
        return g->color * 2 + g->parity;
    }
}

/* the values a group of Wilds alone declares, from wild_value's number */
static void set_wild_value(Group *g, int value) {
    g->number = g->kind == K_SET ? (int8_t)value : 0;
    g->low = g->kind == K_RUN ? (int8_t)value : g->kind == K_COLOR_RUN ? (int8_t)(value / 4) : 0;
    g->color = g->kind == K_COLOR ? (int8_t)value
               : g->kind == K_COLOR_RUN ? (int8_t)(value % 4)
               : g->kind == K_COLOR_EVEN_ODD ? (int8_t)(value / 2)
                                             : -1;
    g->parity = g->kind == K_EVEN_ODD ? (int8_t)value
                : g->kind == K_COLOR_EVEN_ODD ? (int8_t)(value % 2)
                                              : -1;
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
    if (ca != cb) return ca < cb ? -1 : 1;
    /* parity: "" < "even" < "odd" */
    return a->parity == b->parity ? 0 : (a->parity < b->parity ? -1 : 1);
}

/* canonical_lay_down: the groups in the phase's slot order, those of one kind matched
 * largest first. Returns 0, or -1 when they cannot fill the phase. */
static int canonical(const PhaseSpec *ph, const Group *in, Group *out) {
    Group by_kind[NKINDS][MAXG];
    int nk[NKINDS] = {0}, taken[NKINDS] = {0};
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

#endif
