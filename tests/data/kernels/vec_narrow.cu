// Narrow scalar parameters (a signed char and an unsigned short: .param .s8/.u16 or .b8/.b16),
// 128-bit vector loads through a __restrict__ pointer (ld.global.nc.v4), and a bounds check.
extern "C" __global__ void vec_narrow(const int4* __restrict__ in, int* out, signed char s,
                                      unsigned short u, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int4 v = in[i];
        out[i] = ((v.x * s + v.y) ^ (v.z - v.w)) + u;
    }
}
