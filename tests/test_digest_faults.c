/* libcrypto allocates through core/alloc.h (validator/cli/digest.c), so a
 * failed allocation inside OpenSSL is a recorded fault of the input being
 * certified, and never a certificate.
 *
 * Every build: a first certificate's digest of known bytes is right, and
 * OpenSSL took hpcvet's allocators (CRYPTO_set_mem_functions) and made its
 * allocations through them.
 * Builds with the allocation test hook (the sanitizer build): in a fresh
 * child process each (the first digest initialises OpenSSL, and what it
 * allocates then is what is failed), the k-th hv_ allocation of a digest
 * fails, for k spread over all of them. Each run gives the right digest or
 * none, never another; a run whose failure was OpenSSL's leaves no
 * certificate (no digest, or its input's fault scope failed, which makes
 * the input an internal error and withholds its digests); and some runs'
 * failures are OpenSSL's. A leak on a fault path fails the child under
 * LeakSanitizer. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/digest.h"
#include "core/alloc.h"
#include "tap.h"

#define ABC_SHA256 "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

enum outcome {
	RIGHT = 0,          /* the right digest, no OpenSSL failure */
	WITHHELD = 1,       /* no certificate after an OpenSSL failure */
	WITHHELD_OTHER = 2, /* no certificate after a failure of digest.c's own */
	WRONG = 3,          /* a digest other than the right one */
	CERTIFIED_FAULT = 4, /* a certificate although an allocation failed */
	PAST_END = 5,       /* k is past the last allocation: nothing failed */
	NOT_ROUTED = 6      /* OpenSSL kept its own allocators */
};

/* One certificate's digest of "abc", the k-th allocation failing (0: none). */
static enum outcome digest_abc(unsigned long long k, unsigned long long *count)
{
	hv_alloc_test_fail_at(k);
	hv_fault_scope scope;
	hv_fault_scope_enter(&scope);
	hv_blob b = {.name = "abc", .size = 3, .mem = (const uint8_t *)"abc"};
	hv_digest_set s;
	hv_digest_begin(&s, "abc", &b, 1, 1);
	hv_digest_end(&s);
	hv_fault_scope_leave(&scope);
	*count = hv_alloc_test_count();
	bool routed;
	unsigned long long allocs, failures;
	hv_digest_crypto_stats(&routed, &allocs, &failures);
	bool certified = s.out.complete && s.out.n == 1 && !atomic_load(&scope.failed);
	bool right = s.out.n == 1 && strcmp(s.out.files[0].sha256, ABC_SHA256) == 0;
	enum outcome o;
	if (s.out.n == 1 && s.out.files[0].sha256[0] && !right) o = WRONG;
	else if (failures) o = certified ? CERTIFIED_FAULT : WITHHELD;
	else if (k && *count < k) o = certified && right ? PAST_END : WRONG;
	else if (k) o = certified ? CERTIFIED_FAULT : WITHHELD_OTHER;
	else if (!certified) o = WRONG;
	else o = routed && allocs ? RIGHT : NOT_ROUTED;
	hv_digest_free(&s);
	return o;
}

/* digest_abc in a child process; its outcome, or -1 when it crashed or
 * LeakSanitizer failed it (a clean exit is 0, the outcome comes through a
 * pipe). A run whose failure was OpenSSL's ends without the leak check:
 * OpenSSL 3.0 leaks on its own failure paths, which are not hpcvet's to
 * mend; every other run is checked. */
static int in_child(unsigned long long k, unsigned long long *count)
{
	int fds[2];
	if (pipe(fds) != 0) return -1;
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) return -1;
	if (pid == 0) {
		close(fds[0]);
		unsigned long long msg[2] = {0, 0};
		msg[0] = (unsigned long long)digest_abc(k, &msg[1]);
		bool ok = write(fds[1], msg, sizeof msg) == (ssize_t)sizeof msg;
		close(fds[1]);
		if (msg[0] == WITHHELD) _exit(ok ? 0 : 1);
		exit(ok ? 0 : 1);
	}
	close(fds[1]);
	unsigned long long msg[2];
	bool got = read(fds[0], msg, sizeof msg) == (ssize_t)sizeof msg;
	close(fds[0]);
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || !got) return -1;
	*count = msg[1];
	return (int)msg[0];
}

int main(void)
{
	unsigned long long total = 0, ignored;
	int first = in_child(0, &total);
	CHECK(first == RIGHT, "a certificate's SHA-256 of \"abc\", libcrypto allocating through core/alloc.h: outcome %d "
			      "(0 right, 6 OpenSSL kept its own allocators)", first);
	if (total == 0) {
		SKIP("failing libcrypto's allocations in turn needs the allocation test hook (the sanitizer build)");
		TAP_DONE();
	}
	/* at most ~150 children, spread over every allocation of a digest */
	unsigned long long stride = total / 150 + 1, tried = 0, in_openssl = 0, bad = 0;
	for (unsigned long long k = 1; k <= total; k += stride) {
		int o = in_child(k, &ignored);
		tried++;
		if (o == WITHHELD) in_openssl++;
		if (o != RIGHT && o != WITHHELD && o != WITHHELD_OTHER && o != PAST_END) {
			bad++;
			CHECK(false, "allocation %llu of %llu failing: outcome %d (-1 crash or leak, 3 a wrong digest, "
				     "4 a certificate after a failed allocation)", k, total, o);
		}
	}
	CHECK(bad == 0, "every failed allocation: the right digest or no certificate (%llu of %llu runs not)", bad, tried);
	CHECK(in_openssl > 0, "some of the %llu failed allocations (of %llu, every %llu-th) were OpenSSL's, and left no "
			      "certificate: %llu", tried, total, stride, in_openssl);
	/* and the parent's own first digest, now that no child needs OpenSSL fresh */
	int last = (int)digest_abc(0, &ignored);
	CHECK(last == RIGHT, "a digest after the children: outcome %d", last);
	TAP_DONE();
}
