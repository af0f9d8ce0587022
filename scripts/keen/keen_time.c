/*
 * Times Keen's own solver, from Simon Tatham's Portable Puzzle Collection,
 * puzzle by puzzle: the peer of cagey's Keen rows in scripts/speed.sh.
 * Built by scripts/keen.sh against Keen's source, which it includes.
 *
 *   keen_time [ROUNDS] < ids.tsv
 *
 * Reads lines "LEVEL<TAB>K<TAB>GAME-ID<TAB>SOLUTION" (the corpus's
 * keen-levels/ids.tsv, or some of its lines), solves each puzzle ROUNDS
 * times (default 5) and prints "LEVEL K MS": the median of its times, in
 * milliseconds. Each solve is one call of Keen's solver with every
 * deduction it has allowed (its top level, "unreasonable"), as the
 * corpus's figures for Keen were taken; the solution it finds must be the
 * given one, or the program fails.
 */
#define main keen_standalone_main
#include "keen.c"
#undef main

#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    enum { MAX_ROUNDS = 1000 };
    static double times[MAX_ROUNDS];
    static char line[65536], level[64], id[65536], solution[1024];
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    if (rounds < 1 || rounds > MAX_ROUNDS) {
        fprintf(stderr, "keen_time: ROUNDS must be 1 to %d\n", MAX_ROUNDS);
        return 2;
    }
    while (fgets(line, sizeof line, stdin)) {
        int k;
        if (sscanf(line, "%63s %d %65535s %1023s", level, &k, id, solution) != 4)
            continue; /* the header, or a blank line */
        char *desc = strchr(id, ':');
        if (!desc) {
            fprintf(stderr, "keen_time: %s %d: no ':' in the game ID\n", level, k);
            return 2;
        }
        *desc++ = '\0';
        game_params *p = default_params();
        decode_params(p, id);
        const char *err = validate_desc(p, desc);
        if (err) {
            fprintf(stderr, "keen_time: %s %d: %s\n", level, k, err);
            return 2;
        }
        game_state *s = new_game(NULL, p, desc);
        int cells = p->w * p->w;
        for (int r = 0; r < rounds; r++) {
            double start = now();
            memset(s->grid, 0, cells);
            int ret = solver(p->w, s->clues->dsf, s->clues->clues, s->grid, DIFFCOUNT - 1);
            times[r] = now() - start;
            int right = ret < DIFFCOUNT && (int)strlen(solution) == cells;
            for (int i = 0; right && i < cells; i++)
                right = '0' + s->grid[i] == solution[i];
            if (!right) {
                fprintf(stderr, "keen_time: %s %d: Keen's solver did not find the given solution\n", level, k);
                return 1;
            }
        }
        qsort(times, rounds, sizeof *times, by_value);
        printf("%s\t%d\t%.6f\n", level, k, times[rounds / 2] * 1e3);
        free_game(s);
        free_params(p);
    }
    return 0;
}
