#ifndef PULSEBAR_CFRIBIDI_H
#define PULSEBAR_CFRIBIDI_H

#include <stddef.h>
#include <stdint.h>

/// Writes `text` (`length` Unicode scalars, one paragraph) in display order, with Arabic
/// shaped into its presentation forms and mirrored brackets mirrored, as GNU FriBidi's
/// `fribidi_log2vis` does (its paragraph direction taken from the first strong character).
/// The characters a ligature consumed (FriBidi's fill character, U+FEFF) are left out, so
/// `visual` holds at most `length` scalars; their count is returned. Returns -1 with a
/// message in `error` when libfribidi.so.0 cannot be opened (it is opened on first use) or
/// the text is longer than `PULSEBAR_BIDI_MAX` scalars.
int pulsebar_bidi_visual(const uint32_t *text, int length, uint32_t *visual, char *error,
                         size_t error_size);

/// The longest text `pulsebar_bidi_visual` takes (a value is capped at 1,000 bytes before).
#define PULSEBAR_BIDI_MAX 1024

#endif
