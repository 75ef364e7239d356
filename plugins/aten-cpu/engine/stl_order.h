/* stl_order.h — the orderings PyTorch's CPU kernels get from GCC's libstdc++, step for step,
 * so that equal keys come out in the same order as there.
 *
 * PyTorch 1.13 sorts (stable=False) with std::sort, takes topk with std::partial_sort or
 * std::nth_element followed by std::sort, and kthvalue with its own median-of-three
 * quickselect. None of these is stable: which of several equal values comes first depends on
 * the exact sequence of comparisons and swaps, and programs see it (the indices of sort and
 * topk, the boxes a detection model keeps among equal scores). The algorithms below follow
 * libstdc++'s introsort (median-of-three pivot moved to the front, unguarded partition, depth
 * limit 2*log2(n) falling back to heapsort, a final insertion sort over runs of 16),
 * introselect, heap select and heap sort, and PyTorch's quickselect, operation by operation.
 *
 * STL_ORDER(P, T, LESS) defines, for arrays of T and the strict order LESS(a, b) (a macro of
 * two T values):
 *   P_sort(T *a, int64_t n)                    std::sort
 *   P_partial_sort(T *a, int64_t mid, int64_t n)  std::partial_sort
 *   P_nth_element(T *a, int64_t nth, int64_t n)   std::nth_element
 * STL_QUICKSELECT(P, T, GT) defines P_quick_select(T *a, int64_t k, int64_t n): PyTorch's
 * quick_select_template with GT(a, b) its "greater or nan" order.
 */
#ifndef TS_ATEN_CPU_STL_ORDER_H
#define TS_ATEN_CPU_STL_ORDER_H

#include <stdint.h>

/* floor(log2(n)) for n > 0 */
static inline int64_t stl_lg(int64_t n)
{
    int64_t k = 0;
    while (n >>= 1)
        k++;
    return k;
}

#define STL_ORDER(P, T, LESS) \
    static void P##_swap(T *a, int64_t i, int64_t j) \
    { \
        T t = a[i]; \
        a[i] = a[j]; \
        a[j] = t; \
    } \
    static void P##_median_to_first(T *a, int64_t result, int64_t x, int64_t y, int64_t z) \
    { \
        if (LESS(a[x], a[y])) { \
            if (LESS(a[y], a[z])) \
                P##_swap(a, result, y); \
            else if (LESS(a[x], a[z])) \
                P##_swap(a, result, z); \
            else \
                P##_swap(a, result, x); \
        } else if (LESS(a[x], a[z])) { \
            P##_swap(a, result, x); \
        } else if (LESS(a[y], a[z])) { \
            P##_swap(a, result, z); \
        } else { \
            P##_swap(a, result, y); \
        } \
    } \
    static int64_t P##_partition_pivot(T *a, int64_t first, int64_t last) \
    { \
        int64_t mid = first + (last - first) / 2, pivot = first; \
        P##_median_to_first(a, first, first + 1, mid, last - 1); \
        first++; \
        for (;;) { \
            while (LESS(a[first], a[pivot])) \
                first++; \
            last--; \
            while (LESS(a[pivot], a[last])) \
                last--; \
            if (!(first < last)) \
                return first; \
            P##_swap(a, first, last); \
            first++; \
        } \
    } \
    static void P##_adjust_heap(T *a, int64_t first, int64_t hole, int64_t len, T value) \
    { \
        int64_t top = hole, child = hole; \
        while (child < (len - 1) / 2) { \
            child = 2 * (child + 1); \
            if (LESS(a[first + child], a[first + child - 1])) \
                child--; \
            a[first + hole] = a[first + child]; \
            hole = child; \
        } \
        if ((len & 1) == 0 && child == (len - 2) / 2) { \
            child = 2 * (child + 1); \
            a[first + hole] = a[first + child - 1]; \
            hole = child - 1; \
        } \
        int64_t parent = (hole - 1) / 2; \
        while (hole > top && LESS(a[first + parent], value)) { \
            a[first + hole] = a[first + parent]; \
            hole = parent; \
            parent = (hole - 1) / 2; \
        } \
        a[first + hole] = value; \
    } \
    static void P##_heap_select(T *a, int64_t first, int64_t middle, int64_t last) \
    { \
        int64_t len = middle - first; \
        if (len >= 2) \
            for (int64_t parent = (len - 2) / 2;; parent--) { \
                P##_adjust_heap(a, first, parent, len, a[first + parent]); \
                if (parent == 0) \
                    break; \
            } \
        for (int64_t i = middle; i < last; i++) \
            if (LESS(a[i], a[first])) { \
                T value = a[i]; \
                a[i] = a[first]; \
                P##_adjust_heap(a, first, 0, len, value); \
            } \
    } \
    static void P##_sort_heap(T *a, int64_t first, int64_t last) \
    { \
        while (last - first > 1) { \
            last--; \
            T value = a[last]; \
            a[last] = a[first]; \
            P##_adjust_heap(a, first, 0, last - first, value); \
        } \
    } \
    static void P##_linear_insert(T *a, int64_t last) \
    { \
        T value = a[last]; \
        while (LESS(value, a[last - 1])) { \
            a[last] = a[last - 1]; \
            last--; \
        } \
        a[last] = value; \
    } \
    static void P##_insertion_sort(T *a, int64_t first, int64_t last) \
    { \
        for (int64_t i = first + 1; i < last; i++) { \
            if (LESS(a[i], a[first])) { \
                T value = a[i]; \
                for (int64_t j = i; j > first; j--) \
                    a[j] = a[j - 1]; \
                a[first] = value; \
            } else { \
                P##_linear_insert(a, i); \
            } \
        } \
    } \
    static void P##_introsort(T *a, int64_t first, int64_t last, int64_t depth) \
    { \
        while (last - first > 16) { \
            if (depth == 0) { \
                P##_heap_select(a, first, last, last); \
                P##_sort_heap(a, first, last); \
                return; \
            } \
            depth--; \
            int64_t cut = P##_partition_pivot(a, first, last); \
            P##_introsort(a, cut, last, depth); \
            last = cut; \
        } \
    } \
    static void P##_sort(T *a, int64_t n) \
    { \
        if (n < 2) \
            return; \
        P##_introsort(a, 0, n, stl_lg(n) * 2); \
        if (n > 16) { \
            P##_insertion_sort(a, 0, 16); \
            for (int64_t i = 16; i < n; i++) \
                P##_linear_insert(a, i); \
        } else { \
            P##_insertion_sort(a, 0, n); \
        } \
    } \
    static void P##_partial_sort(T *a, int64_t mid, int64_t n) \
    { \
        P##_heap_select(a, 0, mid, n); \
        P##_sort_heap(a, 0, mid); \
    } \
    static void P##_nth_element(T *a, int64_t nth, int64_t n) \
    { \
        int64_t first = 0, last = n; \
        if (n == 0 || nth == n) \
            return; \
        int64_t depth = stl_lg(n) * 2; \
        while (last - first > 3) { \
            if (depth == 0) { \
                P##_heap_select(a, first, nth + 1, last); \
                P##_swap(a, first, nth); \
                return; \
            } \
            depth--; \
            int64_t cut = P##_partition_pivot(a, first, last); \
            if (cut <= nth) \
                first = cut; \
            else \
                last = cut; \
        } \
        P##_insertion_sort(a, first, last); \
    }

#define STL_QUICKSELECT(P, T, GT) \
    static void P##_quick_select(T *a, int64_t k, int64_t n) \
    { \
        int64_t lo = 0, hi = n - 1; \
        for (;;) { \
            if (hi <= lo) \
                return; \
            if (hi == lo + 1) { \
                if (GT(a[lo], a[hi])) \
                    P##_swap(a, lo, hi); \
                return; \
            } \
            P##_swap(a, lo + (hi - lo) / 2, lo + 1); \
            if (GT(a[lo + 1], a[hi])) \
                P##_swap(a, lo + 1, hi); \
            if (GT(a[lo], a[hi])) \
                P##_swap(a, lo, hi); \
            if (GT(a[lo + 1], a[lo])) \
                P##_swap(a, lo + 1, lo); \
            int64_t i = lo + 1, j = hi; \
            T pivot = a[lo]; \
            for (;;) { \
                do \
                    i++; \
                while (GT(pivot, a[i])); \
                do \
                    j--; \
                while (GT(a[j], pivot)); \
                if (j < i) \
                    break; \
                P##_swap(a, i, j); \
            } \
            P##_swap(a, lo, j); \
            if (j <= k) \
                lo = i; \
            if (j >= k) \
                hi = j - 1; \
        } \
    }

#endif
