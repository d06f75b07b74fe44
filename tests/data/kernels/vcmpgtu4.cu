// A byte-wise SWAR compare, as nvcc writes __vcmpgtu4: one thread walks n words.
extern "C" __global__ void vcmpgtu4(const unsigned* a, const unsigned* b, unsigned* out, int n) {
    for (int i = 0; i < n; i++) out[i] = __vcmpgtu4(a[i], b[i]);
}
