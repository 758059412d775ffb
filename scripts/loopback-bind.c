/*
 * LD_PRELOAD shim for DynamoDB Local, which has no bind-address option and listens on
 * every interface with no authentication. A listening socket bound to the wildcard
 * address (0.0.0.0 or ::) on a non-zero port is bound to DDB_BIND_ADDRESS instead
 * (default 127.0.0.1), so only this machine can reach it. Built by
 * scripts/dynamodb-local.sh into .local/ddb; Linux only.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

typedef int (*bind_fn)(int, const struct sockaddr *, socklen_t);

int bind(int fd, const struct sockaddr *addr, socklen_t len) {
    static bind_fn real_bind;
    if (!real_bind) {
        real_bind = (bind_fn)dlsym(RTLD_NEXT, "bind");
    }
    const char *host = getenv("DDB_BIND_ADDRESS");
    struct in_addr v4;
    if (!host || inet_pton(AF_INET, host, &v4) != 1) {
        inet_pton(AF_INET, "127.0.0.1", &v4);
    }
    if (addr && addr->sa_family == AF_INET && len >= (socklen_t)sizeof(struct sockaddr_in)) {
        struct sockaddr_in in;
        memcpy(&in, addr, sizeof in);
        if (in.sin_addr.s_addr == htonl(INADDR_ANY) && in.sin_port != 0) {
            in.sin_addr = v4;
            return real_bind(fd, (const struct sockaddr *)&in, sizeof in);
        }
    } else if (addr && addr->sa_family == AF_INET6 && len >= (socklen_t)sizeof(struct sockaddr_in6)) {
        struct sockaddr_in6 in6;
        memcpy(&in6, addr, sizeof in6);
        if (IN6_IS_ADDR_UNSPECIFIED(&in6.sin6_addr) && in6.sin6_port != 0) {
            /* The IPv4-mapped form of the address: reachable as 127.0.0.1 only. */
            memset(&in6.sin6_addr, 0, sizeof in6.sin6_addr);
            in6.sin6_addr.s6_addr[10] = 0xff;
            in6.sin6_addr.s6_addr[11] = 0xff;
            memcpy(&in6.sin6_addr.s6_addr[12], &v4, 4);
            return real_bind(fd, (const struct sockaddr *)&in6, sizeof in6);
        }
    }
    return real_bind(fd, addr, len);
}
