#ifndef PULSEBAR_AUDIO_LIBRARIES_H
#define PULSEBAR_AUDIO_LIBRARIES_H

// libpulse and libsndfile are opened on first use (audio_libraries.c says why). Call the
// opener before the library's first function: it returns NULL once the library is loaded,
// or a one-line message naming what is missing. Safe from any thread; it loads once.

/// Opens libpulse.so.0 (every pa_* function pulsebar calls).
const char *pulsebar_open_libpulse(void);

/// Opens libsndfile.so.1 (every sf_* function pulsebar calls).
const char *pulsebar_open_libsndfile(void);

#endif
