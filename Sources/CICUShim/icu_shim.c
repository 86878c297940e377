#include "CICUShim.h"
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unicode/ubrk.h>
#include <unicode/utext.h>
#include <unicode/uversion.h>
#include <unicode/ubidi.h>
#include <unicode/uchar.h>
#include <unicode/utf8.h>

struct plumb_breaker {
    UBreakIterator *line;
    UBreakIterator *character;
    /* The line fast path (`plumb_simple_line_breaks`) serves ICU's default rules and
     * `lb=normal`, where CJ is ID; other `lb=` keywords always go to ICU. */
    int line_fast_path;
    int cj_is_id;
};

static int32_t plumb_status(UErrorCode code) { return U_FAILURE(code) ? (int32_t)code : 0; }

plumb_breaker *plumb_breaker_open(const char *locale, int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    plumb_breaker *b = calloc(1, sizeof(plumb_breaker));
    if (!b) { *status = U_MEMORY_ALLOCATION_ERROR; return NULL; }
    b->line = ubrk_open(UBRK_LINE, locale, NULL, 0, &code);
    b->cj_is_id = strstr(locale, "lb=normal") != NULL;
    /* The fast path implements the root rules (and lb=normal's CJ); ICU tailors Japanese and
     * Chinese (line_normal_cj, line_loose_cj), so their iterators always ask ICU. */
    int tailored = strncmp(locale, "ja", 2) == 0 || strncmp(locale, "zh", 2) == 0;
    b->line_fast_path = (b->cj_is_id || strstr(locale, "lb=") == NULL) && !tailored;
    if (U_SUCCESS(code)) b->character = ubrk_open(UBRK_CHARACTER, locale, NULL, 0, &code);
    *status = plumb_status(code);
    if (U_FAILURE(code)) { plumb_breaker_close(b); return NULL; }
    return b;
}

plumb_breaker *plumb_breaker_clone(const plumb_breaker *src, int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    plumb_breaker *b = calloc(1, sizeof(plumb_breaker));
    if (!b) { *status = U_MEMORY_ALLOCATION_ERROR; return NULL; }
    b->line = ubrk_clone(src->line, &code);
    b->cj_is_id = src->cj_is_id;
    b->line_fast_path = src->line_fast_path;
    if (U_SUCCESS(code)) b->character = ubrk_clone(src->character, &code);
    *status = plumb_status(code);
    if (U_FAILURE(code)) { plumb_breaker_close(b); return NULL; }
    return b;
}

void plumb_breaker_close(plumb_breaker *b) {
    if (!b) return;
    if (b->line) ubrk_close(b->line);
    if (b->character) ubrk_close(b->character);
    free(b);
}

static int32_t plumb_collect(UBreakIterator *it, const uint8_t *utf8, int32_t length,
                             int32_t from, int32_t *offsets, uint8_t *hard, int32_t capacity,
                             int32_t *status) {
    UErrorCode code = U_ZERO_ERROR;
    UText text = UTEXT_INITIALIZER;
    utext_openUTF8(&text, (const char *)utf8, length, &code);
    if (U_FAILURE(code)) { *status = code; return -1; }
    ubrk_setUText(it, &text, &code);
    if (U_FAILURE(code)) { utext_close(&text); *status = code; return -1; }
    int32_t count = 0;
    int32_t pos = from > 0 ? ubrk_following(it, from) : ubrk_next(it);
    for (; pos != UBRK_DONE && count < capacity; pos = ubrk_next(it)) {
        offsets[count] = pos;
        if (hard) {
            int32_t rule = ubrk_getRuleStatus(it);
            hard[count] = (rule >= UBRK_LINE_HARD && rule < UBRK_LINE_HARD_LIMIT) ? 1 : 0;
        }
        count++;
    }
    utext_close(&text);
    *status = 0;
    return count;
}

/* Line-break classes of the simple-text fast path (UAX #14 as ICU 72's line rules apply it):
 * the subset of Line_Break values whose rules are pair rules, LB9/LB10 for combining marks,
 * the SP* look-back of LB14-LB16 and ICU's word-initial hyphen: no joiners, hard breaks,
 * dictionary scripts (SA), Hebrew letters, ambiguous or unknown classes, or the classes whose
 * rules need more context (BA, BB, B2, IN, WJ, ZW, ZWJ, JL/JV/JT, RI). OP and CP are split by
 * East Asian width (LB30 applies to the narrow ones only). H2 and H3 act as ID here: their own
 * rules (LB26, LB27) involve jamo, which are outside the set, and LB23a/LB27 give them ID's
 * pairs with PR and PO. EB and EM are ID with LB30b's EB × EM; ID × EM goes to ICU (ICU's EB
 * set adds a few ID emoji, and LB30b joins unassigned pictographs to EM). CJ is NS under the default rules and ID under
 * `lb=normal` (the breaker's `cj_is_id`). */
enum {
    SL_OTHER = 0, SL_AL, SL_NU, SL_SP, SL_ID, SL_IS, SL_EX, SL_CL, SL_CP_NARROW, SL_CP_WIDE,
    SL_OP_NARROW, SL_OP_WIDE, SL_QU, SL_PO, SL_PR, SL_HY, SL_SY, SL_NS, SL_GL, SL_EB, SL_EM, SL_CM, SL_CJ,
};

static int plumb_is_east_asian_wide(UChar32 c) {
    int32_t w = u_getIntPropertyValue(c, UCHAR_EAST_ASIAN_WIDTH);
    return w == U_EA_FULLWIDTH || w == U_EA_WIDE || w == U_EA_HALFWIDTH;
}

/* The fast path's class of `c` from ICU's properties (SL_OTHER: not in the subset). */
static int plumb_simple_line_class_icu(UChar32 c) {
    switch (u_getIntPropertyValue(c, UCHAR_LINE_BREAK)) {
    case U_LB_ALPHABETIC: return SL_AL;
    case U_LB_NUMERIC: return SL_NU;
    case U_LB_SPACE: return SL_SP;
    case U_LB_IDEOGRAPHIC: case U_LB_H2: case U_LB_H3: return SL_ID;
    case U_LB_E_BASE: return SL_EB;
    case U_LB_E_MODIFIER: return SL_EM;
    case U_LB_INFIX_NUMERIC: return SL_IS;
    case U_LB_EXCLAMATION: return SL_EX;
    case U_LB_CLOSE_PUNCTUATION: return SL_CL;
    case U_LB_CLOSE_PARENTHESIS: return plumb_is_east_asian_wide(c) ? SL_CP_WIDE : SL_CP_NARROW;
    case U_LB_OPEN_PUNCTUATION: return plumb_is_east_asian_wide(c) ? SL_OP_WIDE : SL_OP_NARROW;
    case U_LB_QUOTATION: return SL_QU;
    case U_LB_POSTFIX_NUMERIC: return SL_PO;
    case U_LB_PREFIX_NUMERIC: return SL_PR;
    case U_LB_HYPHEN: return SL_HY;
    case U_LB_BREAK_SYMBOLS: return SL_SY;
    case U_LB_NONSTARTER: return SL_NS;
    case U_LB_GLUE: return SL_GL;
    case U_LB_COMBINING_MARK: return SL_CM;
    case U_LB_CONDITIONAL_JAPANESE_STARTER: return SL_CJ;
    default: return SL_OTHER;
    }
}

/* ASCII's classes (`plumb_simple_line_class_icu` of 0...127; the tests compare): controls,
 * '|' (BA) and DEL are outside the subset. */
static const uint8_t plumb_ascii_line_class[128] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /*  ! " # $ % & ' ( ) * + , - . / */
    SL_SP, SL_EX, SL_QU, SL_AL, SL_PR, SL_PO, SL_AL, SL_QU, SL_OP_NARROW, SL_CP_NARROW, SL_AL, SL_PR, SL_IS, SL_HY, SL_IS, SL_SY,
    /* 0-9 : ; < = > ? */
    SL_NU, SL_NU, SL_NU, SL_NU, SL_NU, SL_NU, SL_NU, SL_NU, SL_NU, SL_NU, SL_IS, SL_IS, SL_AL, SL_AL, SL_AL, SL_EX,
    /* @ A-O */
    SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL,
    /* P-Z [ \ ] ^ _ */
    SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_OP_NARROW, SL_PR, SL_CP_NARROW, SL_AL, SL_AL,
    /* ` a-o */
    SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL,
    /* p-z { | } ~ DEL */
    SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_AL, SL_OP_NARROW, 0, SL_CL, SL_AL, 0,
};

/* `plumb_simple_line_class_icu` of U+0000–U+07FF (Latin, Greek, Cyrillic, Armenian, Hebrew,
 * Arabic) and U+3000–U+30FF (CJK punctuation, kana), filled once per process from ICU
 * (`plumb_fill_line_tables`, ~2,300 look-ups). */
/* A per-code-point property asked for every code point of a text: one byte per code point
 * below U+0800 and in U+3000-U+30FF (CJK punctuation, kana), filled once from its rule; the
 * CJK Unified Ideographs (and Extension A) and the Hangul syllables share one value; any other
 * code point asks the rule. Used for Line_Break classes and Grapheme_Cluster_Break. */
typedef struct {
    uint8_t low[0x800];
    uint8_t kana[0x100];
} plumb_code_point_memo;

static void plumb_memo_fill(plumb_code_point_memo *m, int (*rule)(UChar32)) {
    for (UChar32 c = 0; c < 0x800; c++) m->low[c] = (uint8_t)rule(c);
    for (UChar32 c = 0; c < 0x100; c++) m->kana[c] = (uint8_t)rule(0x3000 + c);
}

static inline int plumb_memo_value(const plumb_code_point_memo *m, UChar32 c, int ideographs, int (*rule)(UChar32)) {
    if (c < 0x800) return m->low[c];
    if ((c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0x3400 && c <= 0x4DBF)) return ideographs;
    if (c >= 0x3000 && c <= 0x30FF) return m->kana[c - 0x3000];
    return rule(c);
}

static plumb_code_point_memo plumb_line_classes;
static pthread_once_t plumb_line_tables_once = PTHREAD_ONCE_INIT;
static void plumb_fill_line_tables(void);

/* `plumb_simple_line_class_icu` with ASCII from the literal table, the blocks above from
 * theirs and the blocks that are ID throughout (CJK Unified Ideographs and Extension A,
 * Hangul syllables) by range. The tables must be filled (`plumb_line_tables_once`). */
static int plumb_line_class_rule(UChar32 c) {
    return c < 0x80 ? plumb_ascii_line_class[c] : plumb_simple_line_class_icu(c);
}

static inline int plumb_simple_line_class(UChar32 c) {
    if (c < 0x80) return plumb_ascii_line_class[c];
    return plumb_memo_value(&plumb_line_classes, c, SL_ID, plumb_simple_line_class_icu);
}

int32_t plumb_line_break_forbidden(int32_t c, int32_t side) {
    int32_t lb = u_getIntPropertyValue(c, UCHAR_LINE_BREAK);
    if (side == 0) {
        switch (lb) {
        case U_LB_CLOSE_PUNCTUATION: case U_LB_CLOSE_PARENTHESIS: case U_LB_EXCLAMATION:
        case U_LB_INFIX_NUMERIC: case U_LB_BREAK_SYMBOLS: case U_LB_NONSTARTER: case U_LB_BREAK_AFTER:
        case U_LB_HYPHEN: case U_LB_INSEPARABLE: case U_LB_GLUE: case U_LB_WORD_JOINER:
        case U_LB_COMBINING_MARK: case U_LB_ZWJ: case U_LB_QUOTATION: case U_LB_SPACE: case U_LB_ZWSPACE:
            return 1;
        default:
            return 0;
        }
    }
    switch (lb) {
    case U_LB_OPEN_PUNCTUATION: case U_LB_GLUE: case U_LB_BREAK_BEFORE: case U_LB_WORD_JOINER:
    case U_LB_ZWJ: case U_LB_QUOTATION:
        return 1;
    default:
        return 0;
    }
}

int32_t plumb_simple_line_class_of(int32_t c, int32_t through_table) {
    pthread_once(&plumb_line_tables_once, plumb_fill_line_tables);
    return through_table ? plumb_simple_line_class(c) : plumb_simple_line_class_icu(c);
}

/* Whether no line may break between a code point of class `a` (not SP, OP or GL: handled by
 * the caller) and one of class `b` (not SP, CL, CP, EX, IS, SY, NS or GL: LB7, LB12a, LB13,
 * LB21): LB19, LB21 and the pair rules LB23-LB30. LB25 is ICU's number expression,
 * (PR|PO)? (OP|HY)? NU (NU|SY|IS)* (CL|CP)? (PR|PO)?, not pairs: (PR|PO) × OP, SY × NU and
 * (CL|CP|IS|SY) × (PR|PO) hold only inside a number, so those pairs send the text to ICU
 * (`plumb_simple_line_breaks`); the pairs that hold in any context (HY × NU, IS × NU,
 * NU × NU, NU × (PR|PO), (PR|PO) × NU) are here. */
static int plumb_simple_pair_holds(int a, int b) {
    if (a == SL_QU || b == SL_QU || b == SL_HY) return 1;  /* LB19, LB21 */
    switch (a) {
    case SL_AL:  /* LB23 AL x NU, LB24 AL x (PR|PO), LB28 AL x AL, LB30 AL x OP */
        return b == SL_NU || b == SL_PO || b == SL_PR || b == SL_AL || b == SL_OP_NARROW;
    case SL_NU:  /* LB23 NU x AL, LB25 NU x NU, NU x (PR|PO), LB30 NU x OP */
        return b == SL_AL || b == SL_NU || b == SL_PO || b == SL_PR || b == SL_OP_NARROW;
    case SL_ID: case SL_EM: return b == SL_PO;  /* LB23a */
    case SL_EB: return b == SL_PO || b == SL_EM;  /* LB23a, LB30b */
    case SL_IS: return b == SL_NU || b == SL_AL;  /* LB25, LB29 */
    case SL_CP_NARROW: return b == SL_AL || b == SL_NU;  /* LB30 */
    case SL_PO: return b == SL_AL || b == SL_NU;  /* LB24, LB25 */
    case SL_PR: return b == SL_AL || b == SL_NU || b == SL_ID || b == SL_EB || b == SL_EM;  /* LB24, LB25, LB23a */
    case SL_HY: return b == SL_NU;  /* LB25 */
    default: return 0;  /* CL, CP (wide), EX, SY, NS: LB31 */
    }
}

static inline int plumb_is_open(int c) { return c == SL_OP_NARROW || c == SL_OP_WIDE; }
static inline int plumb_is_close(int c) { return c == SL_CL || c == SL_CP_NARROW || c == SL_CP_WIDE; }

/* Whether a line may break before a code point of class `b` (not CM) after `previous`
 * (SL_OTHER at the start: never called there); `beforeSpaces` is the last class before the
 * spaces `previous` ends (when it is SP), `hyphenStartsWord` whether `previous` is a hyphen
 * at the start or after spaces that no OP took (ICU's (sot | SP) HY × AL: "-v", "a -b"). */
static inline int plumb_simple_breaks(int previous, int b, int beforeSpaces, int hyphenStartsWord) {
    if (b == SL_SP) return 0;  /* LB7 */
    if (previous == SL_GL) return 0;  /* LB12 */
    if (b == SL_GL && previous != SL_SP && previous != SL_HY) return 0;  /* LB12a */
    if (plumb_is_close(b) || b == SL_EX || b == SL_IS || b == SL_SY) return 0;  /* LB13 */
    if (previous == SL_SP) {
        if (plumb_is_open(beforeSpaces)) return 0;  /* LB14 */
        if (beforeSpaces == SL_QU && plumb_is_open(b)) return 0;  /* LB15 */
        if (plumb_is_close(beforeSpaces) && b == SL_NS) return 0;  /* LB16 */
        return 1;  /* LB18 */
    }
    if (plumb_is_open(previous)) return 0;  /* LB14 */
    if (b == SL_NS) return 0;  /* LB16, LB21 */
    if (hyphenStartsWord && b == SL_AL) return 0;
    return !plumb_simple_pair_holds(previous, b);
}

/* A hyphen that starts a word (see `plumb_simple_breaks`): a state of the scan, not a class. */
enum { SL_HY_WORD = SL_CJ + 1, SL_STATES };

/* What the scan does at a boundary: 0 no break, 1 break, 2 ask ICU, 3 decide from the context
 * (`plumb_context_breaks`). */
static uint8_t plumb_pair_action[SL_STATES][SL_STATES];  /* [previous (not SP)][class] */
static uint8_t plumb_space_action[SL_STATES][SL_STATES];  /* [class before the spaces][class] */

/* Whether the boundary between `previous` and `b` depends on more than the pair: LB25's pairs
 * that hold only inside a number (above), and SP ÷ IS NU (ICU breaks before IS after spaces
 * when a digit follows: " .5"). */
static int plumb_needs_context(int previous, int b) {
    return ((previous == SL_PO || previous == SL_PR) && plumb_is_open(b)) || (previous == SL_SY && b == SL_NU)
        || ((plumb_is_close(previous) || previous == SL_IS || previous == SL_SY) && (b == SL_PO || b == SL_PR))
        || (previous == SL_SP && b == SL_IS);
}

/* The pairs ICU always decides (see the classes above). */
static int plumb_needs_icu(int previous, int b) { return previous == SL_ID && b == SL_EM; }

/* Where a number is (LB25's NU (NU|SY|IS)* (CL|CP)?): 0 outside, 1 in its digits and
 * separators, 2 just after its closing CL or CP; `plumb_number_after` tabulates it. */
static uint8_t plumb_number_after[3][SL_STATES];
static int plumb_next_number_state(int state, int cls) {
    if (cls == SL_NU) return 1;
    if (cls == SL_SY || cls == SL_IS) return state == 1 ? 1 : 0;
    if (plumb_is_close(cls)) return state == 1 ? 2 : 0;
    return 0;
}

/* The context pairs of `plumb_needs_context`: `number` is the number state before `b`, `next`
 * the class of the code point after `b` (SL_OTHER at the end). Returns 0, 1, or 2 (ask ICU:
 * a mark follows). */
static int plumb_context_breaks(int previous, int b, int beforeSpaces, int number, int next) {
    if (next == SL_CM) return 2;
    if (previous == SL_SP) return plumb_is_open(beforeSpaces) ? 0 : next == SL_NU;  /* LB14, SP ÷ IS NU */
    if (plumb_is_open(b)) return next == SL_IS ? 2 : next != SL_NU;  /* (PR|PO) × OP NU; ICU: "%(.0" */
    if (b == SL_NU) return number != 1;  /* NU (NU|SY|IS)* SY × NU */
    if (plumb_is_close(previous)) return number != 2;  /* NU (NU|SY|IS)* (CL|CP) × (PR|PO) */
    return number != 1;  /* NU (NU|SY|IS)* × (PR|PO) */
}

/* Fills the class, action and number tables from ICU and the rules above (once per process). */
static void plumb_fill_line_tables(void) {
    plumb_memo_fill(&plumb_line_classes, plumb_line_class_rule);
    for (int state = 0; state < 3; state++) {
        for (int cls = 0; cls < SL_STATES; cls++) plumb_number_after[state][cls] = (uint8_t)plumb_next_number_state(state, cls);
    }
    for (int b = SL_AL; b <= SL_EM; b++) {  /* every class a scan decides at (CM and CJ are mapped) */
        for (int a = SL_AL; a < SL_STATES; a++) {
            if (a == SL_CM || a == SL_CJ) continue;  /* never a state: mapped before */
            int previous = a == SL_HY_WORD ? SL_HY : a;
            plumb_pair_action[a][b] = plumb_needs_icu(previous, b) ? 2 : plumb_needs_context(previous, b) ? 3
                : (uint8_t)plumb_simple_breaks(previous, b, SL_OTHER, a == SL_HY_WORD);
        }
        for (int before = SL_OTHER; before < SL_STATES; before++) {
            plumb_space_action[before][b] = plumb_needs_context(SL_SP, b) ? 3
                : (uint8_t)plumb_simple_breaks(SL_SP, b, before, 0);
        }
    }
}

/* Line-break opportunities of text whose code points all have a class of the subset above,
 * without ICU's iterator: one table look-up per code point (`plumb_pair_action` after a
 * code point that is not a space, `plumb_space_action` after spaces). The subset has no
 * mandatory break, so `hard` is all 0. Returns -1 as soon as a code point is outside the
 * subset or a pair needs ICU's context (the caller runs ICU). */
static int32_t plumb_simple_line_breaks(const uint8_t *utf8, int32_t length, int cj_is_id,
                                        int32_t *offsets, uint8_t *hard, int32_t capacity) {
    pthread_once(&plumb_line_tables_once, plumb_fill_line_tables);
    int32_t count = 0;
    int32_t i = 0;
    int previous = SL_OTHER;  /* state before the boundary being decided (SL_OTHER: none) */
    int beforeSpaces = SL_OTHER;  /* the last class that is not SP */
    int number = 0;  /* plumb_next_number_state before the current code point */
    /* AL x AL (LB28) is no break: a run of ASCII letters after a letter only advances the
     * number state, the steps below without the look-ups that cannot change anything. */
    const int letters_join = plumb_pair_action[SL_AL][SL_AL] == 0;
    while (i < length) {
        if (previous == SL_AL && letters_join) {
            while (i < length && utf8[i] < 0x80 && plumb_ascii_line_class[utf8[i]] == SL_AL) {
                number = plumb_number_after[number][SL_AL];
                i++;
            }
            if (i >= length) break;
        }
        int32_t start = i;
        int cls;
        uint8_t lead = utf8[i];
        if (lead < 0x80) {
            cls = plumb_ascii_line_class[lead];
            i++;
        } else {
            UChar32 c;
            U8_NEXT_OR_FFFD(utf8, i, length, c);
            cls = plumb_simple_line_class(c);
            if (cls == SL_CJ) cls = cj_is_id ? SL_ID : SL_NS;
            if (cls == SL_CM) {
                if (previous != SL_OTHER && previous != SL_SP) continue;  /* LB9: X CM* is X */
                cls = SL_AL;  /* LB10 */
            }
        }
        if (cls == SL_OTHER) return -1;
        if (start > 0) {
            uint8_t action = previous == SL_SP ? plumb_space_action[beforeSpaces][cls] : plumb_pair_action[previous][cls];
            if (action == 3) {
                int next = SL_OTHER;
                if (i < length) {
                    int32_t j = i;
                    UChar32 c;
                    U8_NEXT_OR_FFFD(utf8, j, length, c);
                    next = plumb_simple_line_class(c);
                    if (next == SL_CJ) next = cj_is_id ? SL_ID : SL_NS;
                }
                action = (uint8_t)plumb_context_breaks(previous, cls, beforeSpaces, number, next);
            }
            if (action) {
                if (action == 2 || count >= capacity) return -1;
                offsets[count] = start;
                hard[count] = 0;
                count++;
            }
        }
        number = plumb_number_after[number][cls];
        if (cls == SL_HY && (previous == SL_OTHER || (previous == SL_SP && !plumb_is_open(beforeSpaces)))) {
            previous = SL_HY_WORD;
            beforeSpaces = SL_HY;
        } else {
            previous = cls;
            if (cls != SL_SP) beforeSpaces = cls;
        }
    }
    if (length > 0) {
        if (count >= capacity) return -1;
        offsets[count] = length;
        hard[count] = 0;
        count++;
    }
    return count;
}

int32_t plumb_breaker_line_breaks(plumb_breaker *b, const uint8_t *utf8, int32_t length,
                                  int32_t *offsets, uint8_t *hard, int32_t capacity,
                                  int32_t *status) {
    int32_t simple = b->line_fast_path ? plumb_simple_line_breaks(utf8, length, b->cj_is_id, offsets, hard, capacity) : -1;
    if (simple >= 0) {
        *status = 0;
        return simple;
    }
    return plumb_collect(b->line, utf8, length, 0, offsets, hard, capacity, status);
}

int32_t plumb_breaker_line_breaks_icu(plumb_breaker *b, const uint8_t *utf8, int32_t length,
                                      int32_t *offsets, uint8_t *hard, int32_t capacity,
                                      int32_t *status) {
    return plumb_collect(b->line, utf8, length, 0, offsets, hard, capacity, status);
}

/* Whether UAX #29 breaks on both sides of every code point of this Grapheme_Cluster_Break
 * value, whatever its neighbours are in this set (CR LF excepted): Other, Control, CR, LF, and
 * the precomposed Hangul syllables LV and LVT (GB6-GB8 join them only with L before or V/T
 * after). No rule keeps two of these together except GB3 (CR x LF): GB9/GB9a need an Extend,
 * ZWJ or SpacingMark after, GB9b a Prepend before, GB11 a ZWJ, GB12/13 regional indicators. */
static int plumb_breaks_around(int32_t gcb) {
    switch (gcb) {
    case U_GCB_OTHER: case U_GCB_CONTROL: case U_GCB_CR: case U_GCB_LF: case U_GCB_LV: case U_GCB_LVT:
        return 1;
    default:
        return 0;
    }
}

/* `plumb_breaks_around` of U+0000–U+07FF and U+3000–U+30FF, filled once per process from ICU
 * (`plumb_fill_grapheme_tables`). */
static plumb_code_point_memo plumb_grapheme_breaks_around;
static pthread_once_t plumb_grapheme_tables_once = PTHREAD_ONCE_INIT;

static int plumb_grapheme_rule(UChar32 c) {
    return plumb_breaks_around(u_getIntPropertyValue(c, UCHAR_GRAPHEME_CLUSTER_BREAK));
}

static void plumb_fill_grapheme_tables(void) {
    plumb_memo_fill(&plumb_grapheme_breaks_around, plumb_grapheme_rule);
}

/* Whether `c` breaks around (`plumb_breaks_around` of its Grapheme_Cluster_Break): from the
 * tables above, Han and Hangul syllables (Other, LV, LVT) by range, else ICU. The tables must
 * be filled (`plumb_grapheme_tables_once`). */
static inline int plumb_code_point_breaks_around(UChar32 c) {
    return plumb_memo_value(&plumb_grapheme_breaks_around, c, 1, plumb_grapheme_rule);
}

int32_t plumb_grapheme_breaks_around_of(int32_t c, int32_t through_table) {
    pthread_once(&plumb_grapheme_tables_once, plumb_fill_grapheme_tables);
    return through_table ? plumb_code_point_breaks_around(c) : plumb_grapheme_rule(c);
}

/* The boundaries after byte `from` (itself a boundary) of text whose code points all break
 * around (see above), without ICU's iterator: one per code point, none between CR and LF, at
 * most `capacity` (a full window's last boundary needs the code point after it to break
 * around too and not to be the LF of a CR LF). Returns -1 (nothing decided) as soon as a code point needs the full rules, so the
 * caller runs ICU. */
static int32_t plumb_simple_grapheme_breaks(const uint8_t *utf8, int32_t length, int32_t from,
                                            int32_t *offsets, int32_t capacity) {
    pthread_once(&plumb_grapheme_tables_once, plumb_fill_grapheme_tables);
    int32_t count = 0;
    int32_t i = from;
    UChar32 previous = -1;
    while (i < length && count < capacity) {
        UChar32 c;
        uint8_t lead = utf8[i];
        if (lead < 0x80) {
            c = lead;
            i++;
        } else {
            U8_NEXT_OR_FFFD(utf8, i, length, c);
            if (!plumb_code_point_breaks_around(c)) return -1;
        }
        if (previous == 0x0D && c == 0x0A) {
            offsets[count - 1] = i;  /* CR LF is one cluster */
        } else {
            offsets[count++] = i;
        }
        previous = c;
    }
    if (i < length) {
        /* A full window: its last boundary stands only if the next code point breaks around
         * too (an Extend or ZWJ joins the cluster before it) and is not the LF of a CR LF. */
        int32_t j = i;
        UChar32 next;
        U8_NEXT_OR_FFFD(utf8, j, length, next);
        if (!plumb_code_point_breaks_around(next)) return -1;
        if (previous == 0x0D && next == 0x0A) {
            if (count <= 1) return -1;
            count--;
        }
    }
    return count;
}

int32_t plumb_breaker_grapheme_breaks(plumb_breaker *b, const uint8_t *utf8, int32_t length,
                                      int32_t *offsets, int32_t capacity, int32_t *status) {
    int32_t simple = plumb_simple_grapheme_breaks(utf8, length, 0, offsets, capacity);
    if (simple >= 0) {
        *status = 0;
        return simple;
    }
    return plumb_collect(b->character, utf8, length, 0, offsets, NULL, capacity, status);
}

int32_t plumb_breaker_grapheme_breaks_from(plumb_breaker *b, const uint8_t *utf8, int32_t length,
                                           int32_t from, int32_t *offsets, int32_t capacity,
                                           int32_t *status) {
    int32_t simple = plumb_simple_grapheme_breaks(utf8, length, from, offsets, capacity);
    if (simple >= 0) {
        *status = 0;
        return simple;
    }
    return plumb_collect(b->character, utf8, length, from, offsets, NULL, capacity, status);
}

int32_t plumb_breaker_grapheme_breaks_icu(plumb_breaker *b, const uint8_t *utf8, int32_t length,
                                          int32_t *offsets, int32_t capacity, int32_t *status) {
    return plumb_collect(b->character, utf8, length, 0, offsets, NULL, capacity, status);
}

const char *plumb_icu_version(void) { return U_ICU_VERSION; }

int32_t plumb_bidi_first_strong(const uint8_t *utf8, int32_t length) {
    int32_t i = 0, isolates = 0;
    while (i < length) {
        UChar32 c;
        U8_NEXT_OR_FFFD(utf8, i, length, c);
        switch (u_charDirection(c)) {
        case U_LEFT_TO_RIGHT_ISOLATE:
        case U_RIGHT_TO_LEFT_ISOLATE:
        case U_FIRST_STRONG_ISOLATE:
            isolates++;
            break;
        case U_POP_DIRECTIONAL_ISOLATE:
            if (isolates > 0) isolates--;
            break;
        case U_LEFT_TO_RIGHT:
            if (isolates == 0) return 0;
            break;
        case U_RIGHT_TO_LEFT:
        case U_RIGHT_TO_LEFT_ARABIC:
            if (isolates == 0) return 1;
            break;
        default:
            break;
        }
    }
    return -1;
}

int32_t plumb_bidi_visual_runs(const uint8_t *utf8, int32_t length, uint8_t rtl,
                               int32_t *starts, int32_t *ends, uint8_t *rtl_runs,
                               int32_t capacity, int32_t *status) {
    *status = 0;
    if (length <= 0) return 0;
    // UTF-16 copy of the line, and for every UTF-16 unit the byte offset it starts at.
    UChar *text = malloc(sizeof(UChar) * (size_t)(length + 1));
    int32_t *byte_of = malloc(sizeof(int32_t) * (size_t)(length + 2));
    if (!text || !byte_of) {
        free(text);
        free(byte_of);
        *status = U_MEMORY_ALLOCATION_ERROR;
        return -1;
    }
    int32_t units = 0;
    for (int32_t i = 0; i < length;) {
        int32_t start = i;
        UChar32 c;
        U8_NEXT_OR_FFFD(utf8, i, length, c);
        if (U_IS_BMP(c)) {
            byte_of[units] = start;
            text[units++] = (UChar)c;
        } else {
            byte_of[units] = start;
            text[units++] = U16_LEAD(c);
            byte_of[units] = start;
            text[units++] = U16_TRAIL(c);
        }
    }
    byte_of[units] = length;
    UErrorCode code = U_ZERO_ERROR;
    UBiDi *bidi = ubidi_openSized(units, 0, &code);
    int32_t count = -1;
    if (U_SUCCESS(code)) ubidi_setPara(bidi, text, units, rtl ? 1 : 0, NULL, &code);
    if (U_SUCCESS(code)) count = ubidi_countRuns(bidi, &code);
    if (U_SUCCESS(code)) {
        if (count > capacity) count = capacity;
        for (int32_t r = 0; r < count; r++) {
            int32_t logical = 0, run_length = 0;
            UBiDiDirection d = ubidi_getVisualRun(bidi, r, &logical, &run_length);
            starts[r] = byte_of[logical];
            ends[r] = byte_of[logical + run_length];
            rtl_runs[r] = d == UBIDI_RTL ? 1 : 0;
        }
    } else {
        *status = code;
        count = -1;
    }
    if (bidi) ubidi_close(bidi);
    free(text);
    free(byte_of);
    return count;
}
