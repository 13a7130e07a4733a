/* A peer solver run the way `autoplay solve -f FILE --unique --quiet` runs: read a puzzle file
 * (one 81-character line each), count each puzzle's solutions up to two, print a summary line.
 *
 * Built by run.sh against a checkout the user points it at (nothing of the peer is in this
 * repository): -DPEER_TDOKU links t-dillon/tdoku's src/solver_dpll_triad_simd.cc,
 * -DPEER_JSOLVE links JSolve.c (tdoku's other/jsolve, with its JSolve.c.diff applied or not). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(PEER_TDOKU)
#include <stdint.h>
size_t TdokuSolverDpllTriadSimd(const char *input, size_t limit, uint32_t configuration,
                                char *solution, size_t *num_guesses);
static const char *NAME = "tdoku";
static size_t count(const char *puzzle) {
    char solution[81];
    size_t guesses;
    return TdokuSolverDpllTriadSimd(puzzle, 2, 0, solution, &guesses);
}
#elif defined(PEER_JSOLVE)
#include "JSolve.h"
size_t JSolve_guesses; /* declared by JSolve.c.diff */
static const char *NAME = "JSolve";
static size_t count(const char *puzzle) { return (size_t)JSolve(puzzle, 0, 2); }
#else
#error "build with -DPEER_TDOKU or -DPEER_JSOLVE (see run.sh)"
#endif

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE (one 81-character puzzle per line)\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    size_t cap = 1 << 20, len = 0, n;
    char *text = malloc(cap);
    while (text && (n = fread(text + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) text = realloc(text, cap *= 2);
    }
    fclose(f);
    if (!text) return 2;
    unsigned long unique = 0, other = 0;
    /* One line at a time, NUL-terminated (JSolve reads a C string; tdoku reads 82 bytes). */
    char line[96];
    for (size_t at = 0; at < len;) {
        const char *end = memchr(text + at, '\n', len - at);
        size_t n = (end ? (size_t)(end - text) : len) - at;
        if (n >= 81 && text[at] != '#') {
            memcpy(line, text + at, 81);
            line[81] = '\0';
            if (count(line) == 1) unique++; else other++;
        }
        at += n + 1;
    }
    printf("# %lu puzzles: %lu with one solution, %lu with none or several (%s)\n",
           unique + other, unique, other, NAME);
    free(text);
    return 0;
}
