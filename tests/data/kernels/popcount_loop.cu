// Population count by clearing the lowest set bit until none is left: a loop with a branch.
extern "C" __global__ void popcount_loop(const unsigned* in, unsigned* out, int n) {
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int i = t; i < n; i += blockDim.x * gridDim.x) {
        unsigned x = in[i], c = 0;
        while (x) {
            x &= x - 1;
            c++;
        }
        out[i] = c;
    }
}
