// Byte shuffles and bit fields: reverse the bytes of each word (__byte_perm), extract a field
// (bfe) and count leading zeros, writing a vector of four results per word (st.v4).
extern "C" __global__ void bytes_prmt(const unsigned* in, uint4* out, int n) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    unsigned x = in[t];
    unsigned f;
    asm("bfe.u32 %0, %1, 4, 12;" : "=r"(f) : "r"(x));
    out[t] = make_uint4(__byte_perm(x, 0, 0x0123), f, __clz(x), __popc(x ^ (x >> 1)));
}
