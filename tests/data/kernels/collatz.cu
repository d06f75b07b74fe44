// Data-dependent control flow: an early return, a loop whose trip count depends on the value,
// and a choice inside it.
extern "C" __global__ void collatz(const unsigned* in, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = in[i], steps = 0;
    while (x > 1 && steps < 300) {
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        steps++;
    }
    out[i] = steps;
}
