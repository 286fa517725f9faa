/*
 * wwdbench: times libwap32's WWD reader in one process (process start and file reading excluded),
 * for bench/peers/wwd-libwap32.ts (LEVELKIT_PEER_WWD). This driver is levelkit's own; the library it
 * calls is libwap32's C API (github cubuspl42/libwap32 @a9ed93d, ../shared/docs/PEERS.md), which
 * is not part of levelkit.
 *
 *   wwdbench grids FILE...          one line per file: "<fnv1a64 of the main plane's tiles, u32 LE, hex> <file>"
 *                                   ("- <file>" when libwap32 cannot read it)
 *   wwdbench time PASSES FILE...    reads every file into memory, then PASSES passes of create/read/free over
 *                                   all of them; prints "<wall ms> <cpu ms>" per pass
 */
#include <wap32.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char *slurp(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc(n > 0 ? (size_t)n : 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) { free(buf); buf = NULL; }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

static double ms(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* FNV-1a 64 over the main plane's tiles as u32 LE, row-major (what levelkit's mainGrid holds). */
static uint64_t main_grid_hash(wap_wwd *wwd, int *found) {
    uint64_t h = 0xcbf29ce484222325ULL;
    *found = 0;
    for (uint32_t p = 0; p < wap_wwd_get_plane_count(wwd); p++) {
        wap_plane *plane = wap_wwd_get_plane(wwd, p);
        if (!(wap_plane_get_properties(plane)->flags & WAP_PLANE_FLAG_MAIN_PLANE)) continue;
        uint32_t w, hgt;
        wap_plane_get_map_dimensions(plane, &w, &hgt);
        for (uint32_t y = 0; y < hgt; y++)
            for (uint32_t x = 0; x < w; x++) {
                uint32_t t = wap_plane_get_tile(plane, x, y);
                for (int k = 0; k < 4; k++) { h ^= (t >> (8 * k)) & 0xff; h *= 0x100000001b3ULL; }
            }
        *found = 1;
        break;
    }
    return h;
}

int main(int argc, char **argv) {
    if (argc >= 2 && !strcmp(argv[1], "grids")) {
        for (int i = 2; i < argc; i++) {
            size_t size;
            char *buf = slurp(argv[i], &size);
            wap_wwd *wwd = wap_wwd_create();
            int found = 0;
            uint64_t h = 0;
            if (buf && wwd && !wap_wwd_read(wwd, buf, size)) h = main_grid_hash(wwd, &found);
            if (found) printf("%016llx %s\n", (unsigned long long)h, argv[i]);
            else printf("- %s\n", argv[i]);
            if (wwd) wap_wwd_free(wwd);
            free(buf);
        }
        return 0;
    }
    if (argc >= 4 && !strcmp(argv[1], "time")) {
        int passes = atoi(argv[2]), n = argc - 3;
        char **bufs = calloc((size_t)n, sizeof *bufs);
        size_t *sizes = calloc((size_t)n, sizeof *sizes);
        for (int i = 0; i < n; i++) {
            bufs[i] = slurp(argv[3 + i], &sizes[i]);
            if (!bufs[i]) { fprintf(stderr, "cannot read %s\n", argv[3 + i]); return 1; }
        }
        for (int p = 0; p < passes; p++) {
            double w0 = ms(CLOCK_MONOTONIC), c0 = ms(CLOCK_PROCESS_CPUTIME_ID);
            for (int i = 0; i < n; i++) {
                wap_wwd *wwd = wap_wwd_create();
                if (wap_wwd_read(wwd, bufs[i], sizes[i])) { fprintf(stderr, "libwap32 failed on %s\n", argv[3 + i]); return 1; }
                wap_wwd_free(wwd);
            }
            printf("%.3f %.3f\n", ms(CLOCK_MONOTONIC) - w0, ms(CLOCK_PROCESS_CPUTIME_ID) - c0);
            fflush(stdout);
        }
        return 0;
    }
    fprintf(stderr, "usage: wwdbench grids FILE... | wwdbench time PASSES FILE...\n");
    return 2;
}
