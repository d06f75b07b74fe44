// 128-bit addition with the carry chain, as multi-word arithmetic writes it: each thread adds
// a[i] and b[i] (two 64-bit words each, low word first) into out[i].
extern "C" __global__ void add128(const unsigned long long* a, const unsigned long long* b,
                                  unsigned long long* out) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long lo, hi;
    asm("add.cc.u64 %0, %2, %4;\n\taddc.u64 %1, %3, %5;"
        : "=l"(lo), "=l"(hi)
        : "l"(a[2 * i]), "l"(a[2 * i + 1]), "l"(b[2 * i]), "l"(b[2 * i + 1]));
    out[2 * i] = lo;
    out[2 * i + 1] = hi;
}
