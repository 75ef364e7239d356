/* startup.c — times a command as a whole process and reports its peak memory.
 *
 * usage: bench/startup N CMD [ARG...]
 * Runs CMD N times (output discarded) and prints "SECONDS KB": the best wall time and the
 * largest max RSS. A process's max RSS includes the memory of the process it was forked
 * from until it calls exec, so a Python harness would report Python's ~10 MB for any small
 * program; forked from this small program, the number is the command's own. The command
 * runs with the environment given; compare.py passes the build tree's library path when
 * CMD is libtool's uninstalled binary (the wrapper script costs more than tscript itself).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int n = argc > 2 ? atoi(argv[1]) : 0;
    if (n < 1) {
        fprintf(stderr, "usage: %s N CMD [ARG...]\n", argv[0]);
        return 2;
    }
    double best = 1e30;
    long peak = 0;
    for (int i = 0; i < n; i++) {
        double t0 = now();
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 1;
        }
        if (pid == 0) {
            int null = open("/dev/null", O_WRONLY);
            if (null >= 0) {
                dup2(null, STDOUT_FILENO);
                dup2(null, STDERR_FILENO);
            }
            execvp(argv[2], argv + 2);
            _exit(127);
        }
        int status;
        struct rusage ru;
        if (wait4(pid, &status, 0, &ru) < 0) {
            perror("wait4");
            return 1;
        }
        double t = now() - t0;
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "%s: %s failed (status %d)\n", argv[0], argv[2], status);
            return 1;
        }
        best = t < best ? t : best;
        peak = ru.ru_maxrss > peak ? ru.ru_maxrss : peak;
    }
    printf("%.6f %ld\n", best, peak);
    return 0;
}
