// A loop over an array in global memory: y[i] = a * x[i] + y[i] for the elements of this thread
// (grid-stride), with 16-bit loads and 32-bit stores.
extern "C" __global__ void saxpy_int(int a, const short* x, int* y, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = a * x[i] + y[i];
}
