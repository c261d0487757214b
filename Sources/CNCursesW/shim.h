// ncursesw with its wide-character calls, and the attribute macros Swift cannot import, as functions.
#ifndef TWITTERD_CNCURSESW_SHIM_H
#define TWITTERD_CNCURSESW_SHIM_H
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <ncursesw/curses.h>

static inline int twtui_attr_bold(void) { return (int)A_BOLD; }
static inline int twtui_attr_dim(void) { return (int)A_DIM; }
static inline int twtui_attr_reverse(void) { return (int)A_REVERSE; }
static inline int twtui_attr_underline(void) { return (int)A_UNDERLINE; }
static inline int twtui_color_pair(short pair) { return (int)COLOR_PAIR(pair); }
static inline int twtui_key_code_yes(void) { return KEY_CODE_YES; }
// The standard screen, through a function: Swift sees the global variable as shared mutable state.
static inline WINDOW *twtui_stdscr(void) { return stdscr; }
static inline int twtui_get_wch(unsigned int *out) {
    wint_t character = 0;
    int result = get_wch(&character);
    *out = (unsigned int)character;
    return result;
}
#endif
