/* Every lay-down of a phase, and whether a phase can be made at all.
 * Part of _kernel.c, which includes it: the kernel is one compilation unit. */
#ifndef PHASE10_KERNEL_LAYDOWNS_H
#define PHASE10_KERNEL_LAYDOWNS_H

#include "kernel_state.h"

/* ---------------------------------------------------------------- a bound on searching */

/* Some house phases ("11 sets of 1") make these searches grow exponentially: one search of
 * the expert's could run for minutes. bound_steps (phase10.kernel.bounded_steps) gives the
 * calls that follow on this thread a number of steps (a step: one node of any search
 * below); once they are spent every search answers at once, finding nothing, and the
 * caller throws away what those calls answered. Per thread: the kernel runs with the GIL
 * released, several searches at once. */
#if defined(_MSC_VER)
#define KERNEL_THREAD_LOCAL __declspec(thread)
#elif defined(__GNUC__) || defined(__clang__)
#define KERNEL_THREAD_LOCAL __thread /* (C99 has no thread-local storage of its own) */
#else
#define KERNEL_THREAD_LOCAL _Thread_local
#endif
static KERNEL_THREAD_LOCAL long long steps_left, steps_taken;
static KERNEL_THREAD_LOCAL int steps_bounded, steps_spent;

/* count n more steps; whether the bound is spent */
static int spend_steps(long long n) {
    if (!steps_bounded) return 0;
    steps_taken += n;
    if (steps_left < n) {
        steps_left = 0;
        steps_spent = 1;
        return 1;
    }
    steps_left -= n;
    return 0;
}

static int out_of_steps(void) { return spend_steps(1); }

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
    int avail[48], have[48], na = 0, total = 0, wilds = counts[WILD];
    for (int i = 0; i < ncards; i++)
        if (counts[cards[i]] > 0) {
            avail[na] = cards[i];
            have[na++] = counts[cards[i]];
            total += counts[cards[i]];
        }
    if (na == 0 || total + wilds < size) return 0;
    int taken[48];
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

/* _extend_run: runs from low (of one colour unless color is -1) that start with g's cards */
static int extend_run(GroupVec *v, const int *counts, int low, int number, Group *g,
                      int wilds_left, int naturals, int size, int aw, int color) {
    if (number - low >= size && (naturals || aw)) {
        g->len = (uint8_t)(number - low);
        g->number = 0;
        g->low = (int8_t)low;
        g->color = (int8_t)color;
        g->parity = -1;
        if (gv_push(v, g)) return -1;
    }
    if (number > 12) return 0;
    int pos = number - low;
    for (int each = 0; each < 4; each++) {
        if (color >= 0 && each != color) continue;
        int c = each * 12 + number - 1;
        if (counts[c] > 0) {
            g->cards[pos] = (uint8_t)c;
            if (extend_run(v, counts, low, number + 1, g, wilds_left, naturals + 1, size, aw,
                           color))
                return -1;
        }
    }
    if (wilds_left) {
        g->cards[pos] = WILD;
        if (extend_run(v, counts, low, number + 1, g, wilds_left - 1, naturals, size, aw, color))
            return -1;
    }
    return 0;
}

/* all-Wild groups of sizes size..the Wilds held, with the value given */
static int wild_groups(GroupVec *v, int kind, int size, int wilds, int number, int color,
                       int parity) {
    Group g;
    g.kind = (uint8_t)kind;
    g.number = (int8_t)number;
    g.low = 0;
    g.color = (int8_t)color;
    g.parity = (int8_t)parity;
    for (int n = size; n <= wilds; n++) {
        g.len = (uint8_t)n;
        memset(g.cards, WILD, (size_t)n);
        if (gv_push(v, &g)) return -1;
    }
    return 0;
}

/* group_candidates; aw (natural_min = "phase"): all-Wild groups too */
static int candidates(GroupVec *v, int kind, int size, const int *counts, int aw) {
    v->n = 0;
    int cards[48];
    if (kind == K_SET) {
        for (int number = 1; number <= 12; number++) {
            for (int color = 0; color < 4; color++) cards[color] = color * 12 + number - 1;
            if (subset_groups(v, kind, cards, 4, counts, size)) return -1;
        }
        if (aw)
            for (int n = size; n <= counts[WILD]; n++)
                for (int number = 1; number <= 12; number++)
                    if (wild_groups(v, kind, n, n, number, -1, -1)) return -1;
    } else if (is_run_kind(kind)) {
        Group g;
        g.kind = (uint8_t)kind;
        for (int color = kind == K_COLOR_RUN ? 0 : -1; color < (kind == K_COLOR_RUN ? 4 : 0);
             color++)
            for (int low = 1; low < 14 - size; low++)
                if (extend_run(v, counts, low, low, &g, counts[WILD], 0, size, aw, color))
                    return -1;
    } else { /* one colour, even/odd, or both: the numbered cards that fit, by index */
        for (int color = needs_color(kind) ? 0 : -1; color < (needs_color(kind) ? 4 : 0); color++)
            for (int parity = needs_parity(kind) ? 0 : -1; parity < (needs_parity(kind) ? 2 : 0);
                 parity++) {
                int n = 0;
                for (int c = 0; c < 48; c++)
                    if ((color < 0 || card_color(c) == color) &&
                        (parity < 0 || card_number(c) % 2 == parity))
                        cards[n++] = c;
                if (subset_groups(v, kind, cards, n, counts, size)) return -1;
                if (aw && wild_groups(v, kind, size, counts[WILD], 0, color, parity)) return -1;
            }
    }
    return 0;
}

static uint64_t lay_hash(const LayDown *ld) {
    uint64_t h = (1469598103934665603ull ^ (uint64_t)ld->phase) * 1099511628211ull;
    for (int i = 0; i < ld->ngroups; i++) {
        const Group *g = &ld->groups[i];
        h = (h ^ g->kind) * 1099511628211ull;
        h = (h ^ g->len) * 1099511628211ull;
        h = (h ^ (uint64_t)(wild_value(g) + 1)) * 1099511628211ull;
        for (int j = 0; j < g->len; j++) h = (h ^ g->cards[j]) * 1099511628211ull;
    }
    return h | 1;
}

static int lay_equal(const LayDown *a, const LayDown *b) {
    if (a->ngroups != b->ngroups || a->phase != b->phase) return 0;
    for (int i = 0; i < a->ngroups; i++) {
        const Group *x = &a->groups[i], *y = &b->groups[i];
        if (x->kind != y->kind || x->len != y->len || memcmp(x->cards, y->cards, x->len) ||
            wild_value(x) != wild_value(y))
            return 0;
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
    al->lays[al->nlays] = *ld;
    al->lays[al->nlays].found = al->nlays;
    al->nlays++;
    return 0;
}

typedef struct {
    const PhaseSpec *ph;
    int counts[NCARDS];
    Group chosen[MAXG];
    GroupVec vecs[MAXG];
    ActList *out;
    int stop_at_first, found;
    int named; /* the phase the lay-downs name, or 0 */
    int aw;    /* natural_min = "phase" */
} Search;

/* _LayDownSearch.place: every slot filled in slot order, each distinct result once */
static int place(Search *S, int depth) {
    const PhaseSpec *ph = S->ph;
    if (S->stop_at_first && S->found) return 0;
    if (out_of_steps()) return 0;
    if (depth == ph->ngroups) {
        LayDown ld;
        ld.ngroups = (uint8_t)ph->ngroups;
        ld.phase = (int8_t)S->named;
        if (S->aw) { /* one numbered card in the whole phase */
            int naturals = 0;
            for (int i = 0; i < ph->ngroups; i++) naturals += wild_value(&S->chosen[i]) < 0;
            if (!naturals) return 0;
        }
        if (canonical(ph, S->chosen, ld.groups)) return 0;
        S->found = 1;
        return S->out ? add_lay(S->out, &ld) : 0;
    }
    int slot = ph->order[depth], prev = depth ? ph->order[depth - 1] : -1;
    /* identical slots take their groups in one order only, as the engine's search does:
     * the engine's list (and GreedyPlayer's ties) keep that search's order */
    int same = prev >= 0 && ph->kind[prev] == ph->kind[slot] && ph->size[prev] == ph->size[slot];
    GroupVec *v = &S->vecs[depth];
    if (candidates(v, ph->kind[slot], ph->size[slot], S->counts, S->aw)) return -1;
    /* each candidate listed is a step: a group that takes any card of a kind (an even or
     * odd group, a colour group) may have thousands */
    if (spend_steps(v->n)) return 0;
    for (int i = 0; i < v->n; i++) {
        const Group *g = &v->items[i];
        if (same && group_cmp(g, &S->chosen[prev]) < 0) continue;
        for (int j = 0; j < g->len; j++) S->counts[g->cards[j]]--;
        S->chosen[slot] = *g;
        int err = place(S, depth + 1);
        for (int j = 0; j < g->len; j++) S->counts[g->cards[j]]++;
        if (err) return -1;
        if (S->stop_at_first && S->found) return 0;
    }
    return 0;
}

static int lay_downs(const PhaseSpec *ph, const int *counts, ActList *out, int named, int aw) {
    Search S;
    memset(&S, 0, sizeof(S));
    S.ph = ph;
    S.named = named;
    S.aw = aw;
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
static int can_sets_runs(const PhaseSpec *ph, const int *order, int depth, int *nums, int wilds,
                         int aw) {
    if (out_of_steps()) return 0;
    int slot = order[depth], size = ph->size[slot], last = depth == ph->ngroups - 1;
    if (aw && wilds >= size) { /* a group of Wilds alone */
        if (last || can_sets_runs(ph, order, depth + 1, nums, wilds - size, aw)) return 1;
    }
    if (ph->kind[slot] == K_SET) {
        for (int k = 1; k <= 12; k++) {
            if (last) {
                if (nums[k] >= 1 && nums[k] + wilds >= size) return 1;
                continue;
            }
            for (int j = 1; j <= nums[k] && j <= size; j++) {
                if (size - j > wilds) continue;
                nums[k] -= j;
                int ok = can_sets_runs(ph, order, depth + 1, nums, wilds - (size - j), aw);
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
            ok = can_sets_runs(ph, order, depth + 1, nums, wilds - used_w, aw);
            for (int i = 0; i < size; i++)
                if ((mask >> i) & 1u) nums[low + i]++;
            if (ok) return 1;
        }
    }
    return 0;
}

/* The general test (feasibility.can_lay's way, for any kinds of group): an anchor per group
 * (a set's number, a run's colour and low, a colour, a parity), then the most numbered cards
 * those anchors can place, a maximum flow from the cards to the anchors' slots; the Wilds
 * fill the rest. Under natural_min = "group" each group first gets one numbered card (a
 * matching; augmenting paths never take it away again). */
typedef struct {
    uint64_t cells; /* the numbered cards (by index) the slot takes */
    int cap;
} FSlot;

typedef struct {
    FSlot slots[12];
    int nslots;
} FAnchor;

static int anchors_of(int kind, int size, FAnchor *out) {
    int n = 0;
    if (kind == K_SET) {
        for (int number = 1; number <= 12; number++) {
            uint64_t cells = 0;
            for (int c = 0; c < 4; c++) cells |= 1ull << (c * 12 + number - 1);
            out[n].slots[0].cells = cells;
            out[n].slots[0].cap = size;
            out[n++].nslots = 1;
        }
    } else if (is_run_kind(kind)) {
        for (int color = kind == K_COLOR_RUN ? 0 : -1; color < (kind == K_COLOR_RUN ? 4 : 0); color++)
            for (int low = 1; low + size - 1 <= 12; low++) {
                for (int k = 0; k < size; k++) {
                    uint64_t cells = 0;
                    for (int c = 0; c < 4; c++)
                        if (color < 0 || c == color) cells |= 1ull << (c * 12 + low + k - 1);
                    out[n].slots[k].cells = cells;
                    out[n].slots[k].cap = 1;
                }
                out[n++].nslots = size;
            }
    } else {
        for (int color = needs_color(kind) ? 0 : -1; color < (needs_color(kind) ? 4 : 0); color++)
            for (int parity = needs_parity(kind) ? 0 : -1; parity < (needs_parity(kind) ? 2 : 0);
                 parity++) {
                uint64_t cells = 0;
                for (int c = 0; c < 48; c++)
                    if ((color < 0 || card_color(c) == color) &&
                        (parity < 0 || card_number(c) % 2 == parity))
                        cells |= 1ull << c;
                out[n].slots[0].cells = cells;
                out[n].slots[0].cap = size;
                out[n++].nslots = 1;
            }
    }
    return n;
}

#define FN (2 + 48 + MAXG * 12 + MAXG) /* source, cards, slots, groups, sink: at most */

/* one augmenting path (breadth first) from 0 to t in the n-node graph cap (n * n, row by
 * row); 1 if one was found. nz[u] has bit w set where cap[u][w] > 0 (n <= 64): the search
 * visits only those, in the same order as a scan of the row would. */
static int augment_scan(short *cap, int n, int t);
static int augment(short *cap, uint64_t *nz, int n, int t) {
    if (n > 64) return augment_scan(cap, n, t);
    int prev[64], queue[64], head = 0, tail = 0;
    uint64_t seen = 1;
    prev[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int u = queue[head++];
        for (uint64_t next = nz[u] & ~seen; next; next &= next - 1) {
            int w = lowest_bit(next);
            seen |= 1ull << w;
            prev[w] = u;
            queue[tail++] = w;
            if (w != t) continue;
            for (int v = t; v != 0; v = prev[v]) {
                int from = prev[v];
                if (--cap[from * n + v] == 0) nz[from] &= ~(1ull << v);
                if (cap[v * n + from]++ == 0) nz[v] |= 1ull << from;
            }
            return 1;
        }
    }
    return 0;
}

/* the same, scanning whole rows: for a graph of more than 64 nodes (dozens of kinds of
 * numbered card held, or a phase of many slots, far beyond any dealt hand and phase list) */
static int augment_scan(short *cap, int n, int t) {
    int prev[FN], queue[FN], head = 0, tail = 0;
    for (int i = 0; i < n; i++) prev[i] = -1;
    prev[0] = 0;
    queue[tail++] = 0;
    while (head < tail && prev[t] < 0) {
        int u = queue[head++];
        const short *row = cap + u * n;
        for (int w = 0; w < n; w++)
            if (prev[w] < 0 && row[w] > 0) {
                prev[w] = u;
                queue[tail++] = w;
            }
    }
    if (prev[t] < 0) return 0;
    for (int w = t; w != 0; w = prev[w]) {
        cap[prev[w] * n + w]--;
        cap[w * n + prev[w]]++;
    }
    return 1;
}

/* the most numbered cards of the counts these anchors (one for each of the first ng groups)
 * can place, or -1 when under natural_min = "group" (aw 0) a group cannot have one of its
 * own. The graph has a node only for the numbered cards held that some chosen slot takes (a
 * hand holds a dozen kinds at most, where the deck has 48). */
static int anchors_flow(const PhaseSpec *ph, int ng, const FAnchor **chosen, const int *counts,
                        int aw) {
    static const short big = 1000;
    /* a flow is many steps' work: its graph's groups and slots count (once spent, no way) */
    if (spend_steps(16 + 4 * ng)) return -1;
    short cap[FN * FN];
    uint64_t nz[FN]; /* (the edges with room, for graphs of up to 64 nodes) */
    int slots = 0;
    uint64_t wanted = 0;
    for (int g = 0; g < ng; g++) {
        slots += chosen[g]->nslots;
        for (int k = 0; k < chosen[g]->nslots; k++) wanted |= chosen[g]->slots[k].cells;
    }
    int cards[48], ncards = 0;
    for (int c = 0; c < 48; c++)
        if (counts[c] && ((wanted >> c) & 1u)) cards[ncards++] = c;
    int slot0 = 1 + ncards, group0 = slot0 + slots, t = group0 + ng, n = t + 1;
#define EDGE(u, w, c) (cap[(u) * n + (w)] = (short)(c), nz[u] |= n <= 64 ? 1ull << (w) : 0)
    memset(cap, 0, sizeof(short) * (size_t)(n * n));
    memset(nz, 0, sizeof(uint64_t) * (size_t)n);
    for (int i = 0; i < ncards; i++) EDGE(0, 1 + i, counts[cards[i]]);
    for (int g = 0, at = slot0; g < ng; g++)
        for (int k = 0; k < chosen[g]->nslots; k++, at++) {
            const FSlot *slot = &chosen[g]->slots[k];
            for (int i = 0; i < ncards; i++)
                if ((slot->cells >> cards[i]) & 1u) EDGE(1 + i, at, big);
            EDGE(at, group0 + g, slot->cap);
        }
    int flow = 0;
    if (!aw) { /* one numbered card in each group first */
        for (int g = 0; g < ng; g++) EDGE(group0 + g, t, 1);
        while (augment(cap, nz, n, t)) flow++;
        if (flow < ng) return -1;
    }
    for (int g = 0; g < ng; g++) EDGE(group0 + g, t, cap[(group0 + g) * n + t] + big);
#undef EDGE
    while (augment(cap, nz, n, t)) flow++;
    return flow;
}

/* whether these anchors can be filled with the counts' cards and Wilds */
static int anchors_fill(const PhaseSpec *ph, int ng, const FAnchor **chosen, const int *counts,
                        int aw) {
    int total = 0;
    for (int g = 0; g < ng; g++) total += ph->size[g];
    int flow = anchors_flow(ph, ng, chosen, counts, aw);
    return flow >= 0 && total - flow <= counts[WILD];
}

/* every anchor of each kind and size of group (1 to 11), worked out once at import */
static FAnchor anchor_table[NKINDS][12][48];
static int anchor_count[NKINDS][12];

static void init_anchor_tables(void) {
    for (int kind = 0; kind < NKINDS; kind++)
        for (int size = 1; size < 12; size++)
            anchor_count[kind][size] = anchors_of(kind, size, anchor_table[kind][size]);
}

/* the numbered cards of the counts among cells, with their copies */
static int held_in(uint64_t cells, const int *counts) {
    int held = 0;
    for (; cells; cells &= cells - 1) held += counts[lowest_bit(cells)];
    return held;
}

/* What each anchor's group could take on its own: its numbered cards held (naturals) and how
 * many of them its slots place (placed), worked out once per test, not at every node. */
typedef struct {
    int naturals[MAXG][48], placed[MAXG][48];
    uint64_t takes[MAXG][48]; /* the numbered cards held that its slots take */
} Alone;

static void anchors_alone(const PhaseSpec *ph, const FAnchor *const *all, const int *nall,
                          const int *counts, Alone *alone) {
    uint64_t mask = 0; /* the numbered cards held */
    for (int c = 0; c < 48; c++)
        if (counts[c]) mask |= 1ull << c;
    for (int g = 0; g < ph->ngroups; g++)
        for (int a = 0; a < nall[g]; a++) {
            int naturals = 0, placed = 0;
            uint64_t takes = 0;
            for (int k = 0; k < all[g][a].nslots; k++) {
                uint64_t cells = all[g][a].slots[k].cells & mask;
                int have = held_in(cells, counts);
                takes |= cells;
                naturals += have;
                placed += have < all[g][a].slots[k].cap ? have : all[g][a].slots[k].cap;
            }
            alone->naturals[g][a] = naturals;
            alone->placed[g][a] = placed;
            alone->takes[g][a] = takes;
        }
}

/* bound: the most numbered cards the groups before g could take, each on its own (the flow
 * is never more); need: their sizes; used: the cards held they take, shared: whether two of
 * them take the same card. Groups that share no card take exactly bound between them, with
 * a numbered card each: no flow is needed to know it. */
static int anchors_search(const PhaseSpec *ph, const FAnchor *const *all, const int *nall,
                          const Alone *alone, const FAnchor **chosen, int *index, int g,
                          const int *counts, int aw, int bound, int need, uint64_t used,
                          int shared) {
    if (out_of_steps()) return 0;
    if (g == ph->ngroups) return !shared || anchors_fill(ph, g, chosen, counts, aw);
    /* identical groups take their anchors in one order only */
    int same = g > 0 && ph->kind[g] == ph->kind[g - 1] && ph->size[g] == ph->size[g - 1];
    for (int a = same ? index[g - 1] : 0; a < nall[g]; a++) {
        /* alone, could the group be filled this way? */
        int naturals = alone->naturals[g][a], placed = alone->placed[g][a];
        if ((!aw && !naturals) || placed + counts[WILD] < ph->size[g]) continue;
        if (bound + placed + counts[WILD] < need + ph->size[g]) continue;
        if (ph->ngroups == 1) return 1; /* alone, that is the whole answer: its slots are apart */
        chosen[g] = &all[g][a];
        index[g] = a;
        int share = shared || (used & alone->takes[g][a]) != 0;
        /* the groups so far together, before any more are added */
        if (share && g > 0 && g + 1 < ph->ngroups && !anchors_fill(ph, g + 1, chosen, counts, aw))
            continue;
        if (anchors_search(ph, all, nall, alone, chosen, index, g + 1, counts, aw, bound + placed,
                           need + ph->size[g], used | alone->takes[g][a], share))
            return 1;
    }
    return 0;
}

/* A general test's groups and anchors: the most constrained groups first (colour runs, runs,
 * then the rest by kind, the largest first), as compile_phase orders them; identical groups
 * side by side. */
typedef struct {
    PhaseSpec q;
    const FAnchor *all[MAXG], *chosen[MAXG];
    int nall[MAXG], index[MAXG];
    Alone alone;
} General;

static void general_setup(const PhaseSpec *ph, const int *counts, General *G) {
    PhaseSpec *q = &G->q;
    int rank[MAXG];
    *q = *ph;
    for (int g = 0; g < ph->ngroups; g++)
        rank[g] = (ph->kind[g] == K_COLOR_RUN ? 0 : is_run_kind(ph->kind[g]) ? 1 : 2) * 1000 +
                  ph->kind[g] * 100 - ph->size[g];
    for (int g = 1; g < q->ngroups; g++) /* insertion sort by rank */
        for (int h = g; h > 0 && rank[h - 1] > rank[h]; h--) {
            int r = rank[h], k = q->kind[h], z = q->size[h];
            rank[h] = rank[h - 1], q->kind[h] = q->kind[h - 1], q->size[h] = q->size[h - 1];
            rank[h - 1] = r, q->kind[h - 1] = k, q->size[h - 1] = z;
        }
    for (int g = 0; g < q->ngroups; g++) {
        G->all[g] = anchor_table[q->kind[g]][q->size[g]];
        G->nall[g] = anchor_count[q->kind[g]][q->size[g]];
    }
    anchors_alone(q, G->all, G->nall, counts, &G->alone);
}

static int can_lay_general(const PhaseSpec *ph, const int *counts, int aw) {
    General G;
    general_setup(ph, counts, &G);
    return anchors_search(&G.q, G.all, G.nall, &G.alone, G.chosen, G.index, 0, counts, aw, 0, 0,
                          0, 0);
}

/* The most numbered cards any choice of anchors places (branch and bound): what
 * general_best_flow searches with. order[g]: the anchors group g may take, the most it could
 * place on its own first; rest[g]: the most the groups from g on could place, each on its
 * own; best: the most found so far (or the floor it was asked to beat). */
typedef struct {
    General G;
    const int *counts;
    int aw, total, best, rest[MAXG + 1];
    int order[MAXG][48], norder[MAXG];
} BestFlow;

static void anchors_best(BestFlow *B, int g, int bound, uint64_t used, int shared) {
    if (out_of_steps()) return;
    General *G = &B->G;
    const PhaseSpec *ph = &G->q;
    if (g == ph->ngroups) {
        /* groups that share no card place exactly bound between them (as anchors_search);
         * others no more than the cards held that they take */
        if (shared && held_in(used, B->counts) <= B->best) return;
        int flow = shared ? anchors_flow(ph, g, G->chosen, B->counts, B->aw) : bound;
        if (flow > B->best) B->best = flow;
        return;
    }
    /* identical groups take their anchors in one order only */
    int same = g > 0 && ph->kind[g] == ph->kind[g - 1] && ph->size[g] == ph->size[g - 1];
    for (int i = same ? G->index[g - 1] : 0; i < B->norder[g]; i++) {
        int a = B->order[g][i], placed = G->alone.placed[g][a];
        if (bound + placed + B->rest[g + 1] <= B->best) break; /* (the rest place no more) */
        G->chosen[g] = &G->all[g][a];
        G->index[g] = i;
        uint64_t takes = G->alone.takes[g][a];
        anchors_best(B, g + 1, bound + placed, used | takes, shared || (used & takes) != 0);
        if (B->best >= B->total) return; /* every card of the phase placed: none does better */
    }
}

/* The most numbered cards of the counts that one choice of anchors places (the phase's cards
 * less the Wilds it then needs), if more than floor; floor if none places more (or no choice
 * gives each group a numbered card of its own, under natural_min = "group"). One search,
 * where asking can_lay_general with more and more Wilds searches once for each number. */
static int general_best_flow(const PhaseSpec *ph, const int *counts, int aw, int floor) {
    BestFlow B;
    general_setup(ph, counts, &B.G);
    B.counts = counts;
    B.aw = aw;
    B.best = floor;
    B.total = 0;
    for (int g = 0; g < ph->ngroups; g++) B.total += ph->size[g];
    B.rest[ph->ngroups] = 0;
    for (int g = ph->ngroups - 1; g >= 0; g--) {
        int most = -1;
        for (int a = 0; a < B.G.nall[g]; a++)
            if ((aw || B.G.alone.naturals[g][a]) && B.G.alone.placed[g][a] > most)
                most = B.G.alone.placed[g][a];
        if (most < 0) return floor; /* a group with no numbered card it could have */
        B.rest[g] = B.rest[g + 1] + most;
        /* the anchors it may take, the most placed first (in anchor order among equals) */
        int n = 0;
        for (int placed = most; placed >= 0; placed--)
            for (int a = 0; a < B.G.nall[g]; a++)
                if (B.G.alone.placed[g][a] == placed && (aw || B.G.alone.naturals[g][a]))
                    B.order[g][n++] = a;
        B.norder[g] = n;
    }
    anchors_best(&B, 0, 0, 0, 0);
    return B.best;
}

/* whether can_lay takes the general test (anything but sets and runs, or one colour group) */
static int general_phase(const PhaseSpec *ph) {
    int sets_runs = 1;
    for (int g = 0; g < ph->ngroups; g++) sets_runs &= ph->kind[g] == K_SET || ph->kind[g] == K_RUN;
    return !sets_runs && !(ph->ngroups == 1 && ph->kind[0] == K_COLOR);
}

/* aw (natural_min = "phase"): groups of Wilds alone may be laid; one numbered card in the
 * phase is then enough, and any numbered card can take a Wild's place in some group (a
 * group of Wilds takes the card's value), so the hand needs only to hold one */
static int can_lay(const PhaseSpec *ph, const int *counts, int aw) {
    if (general_phase(ph)) {
        int naturals = 0;
        for (int c = 0; c < 48; c++) naturals += counts[c];
        return naturals > 0 && can_lay_general(ph, counts, aw);
    }
    if (ph->ngroups == 1 && ph->kind[0] == K_COLOR) {
        for (int color = 0; color < 4; color++) {
            int n = 0;
            for (int i = 0; i < 12; i++) n += counts[color * 12 + i];
            if (n >= 1 && n + counts[WILD] >= ph->size[0]) return 1;
        }
        return 0;
    }
    int nums[13] = {0}, order[MAXG] = {0}, k = 0;
    int naturals = 0;
    for (int c = 0; c < 48; c++) {
        nums[card_number(c)] += counts[c];
        naturals += counts[c];
    }
    if (aw && !naturals) return 0;
    for (int i = 0; i < ph->ngroups; i++) /* the sets first: they branch the least */
        if (ph->kind[i] == K_SET) order[k++] = i;
    for (int i = 0; i < ph->ngroups; i++)
        if (ph->kind[i] != K_SET) order[k++] = i;
    return can_sets_runs(ph, order, 0, nums, counts[WILD], aw);
}

#endif
