// Linux-only system headers that Glibc's Swift module does not export.
#include <sys/eventfd.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <signal.h>
#include <sys/prctl.h>
#include <malloc.h>

// prctl is variadic, which Swift cannot call: names the calling thread (at most 15 bytes).
static inline int pulsebar_name_thread(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}
