// A per-thread histogram in a local array: the index is data, so nvcc keeps the array in local
// memory (an .local depot, st.local/ld.local, cvta.local).
extern "C" __global__ void local_hist(const unsigned char* in, unsigned* out, int n) {
    unsigned h[16] = {0};
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < n; k++) h[in[i * n + k] & 15]++;
    for (int k = 0; k < 16; k++) out[i * 16 + k] = h[k];
}
