/* cpu-account OUT CMD [ARG...]: runs CMD and writes to OUT the wall time
 * and the user and system CPU seconds used by CMD and every process it
 * started, as "WALL USER SYS". /usr/bin/time cannot do this for fuzzers:
 * afl-fuzz's fork server leaves the target's process to be reparented when
 * it is killed, and its CPU time never reaches time's wait. Here we become
 * the child subreaper, so every orphan below us is ours to reap and its
 * times are counted. Once CMD has exited, processes it left behind (afl-fuzz
 * leaves its cmplog fork server's target stopped) are killed and reaped, so
 * the run ends and nothing leaks. Exits with CMD's exit status (128 +
 * signal). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timeval tv) { return (double)tv.tv_sec + (double)tv.tv_usec / 1e6; }

/* Signal every process whose parent is us (the orphans we adopted). */
static int signal_adopted(int sig)
{
	int n = 0;
	DIR *d = opendir("/proc");
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		char path[300], buf[512];
		if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
		snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f) continue;
		size_t k = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[k] = '\0';
		const char *rp = strrchr(buf, ')'); /* the command name may hold spaces */
		int ppid = 0;
		char state;
		if (rp && sscanf(rp + 1, " %c %d", &state, &ppid) == 2 && ppid == getpid()) {
			kill((pid_t)atoi(e->d_name), sig);
			n++;
		}
	}
	if (d) closedir(d);
	return n;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: cpu-account OUT CMD [ARG...]\n");
		return 2;
	}
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) perror("cpu-account: PR_SET_CHILD_SUBREAPER");
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid = fork();
	if (pid < 0) {
		perror("cpu-account: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror("cpu-account: exec");
		_exit(127);
	}
	int status = 0, rc = 0;
	bool done = false;
	for (;;) { /* reap the command and every orphan until none is left */
		int st;
		pid_t w = waitpid(-1, &st, done ? WNOHANG : 0);
		if (w < 0) {
			if (errno == EINTR) continue;
			break;
		}
		if (w == pid) {
			status = st;
			done = true;
		}
		if (done && w == 0) { /* leftovers: wake, then kill what remains */
			signal_adopted(SIGCONT);
			if (signal_adopted(SIGKILL) == 0) usleep(10000);
			while ((w = waitpid(-1, &st, WNOHANG)) > 0) {}
			usleep(10000);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	FILE *f = fopen(argv[1], "w");
	if (f) {
		fprintf(f, "%.2f %.2f %.2f\n", (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
			seconds(ru.ru_utime), seconds(ru.ru_stime));
		fclose(f);
	}
	return rc;
}
