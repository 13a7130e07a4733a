/* cputime CMD [ARG...]: runs CMD (its stdout to /dev/null, its stderr kept) and prints the CPU
 * time it used, user + system, in microseconds. Exits non-zero if CMD could not run or failed
 * with a status above 1 (1 is `autoplay solve`'s "some puzzle failed", which a benchmark of
 * puzzles with several solutions expects). */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: cputime CMD [ARG...]\n");
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 2;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, 1);
        execvp(argv[1], argv + 1);
        perror(argv[1]);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) {
        perror("wait4");
        return 2;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) > 1) {
        fprintf(stderr, "cputime: %s failed (status %d)\n", argv[1], status);
        return 2;
    }
    long long us = (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000LL +
                   ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
    printf("%lld\n", us);
    return 0;
}
