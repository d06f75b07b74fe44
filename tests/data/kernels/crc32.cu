// CRC-32 (the reflected polynomial 0xEDB88320), bit by bit, over n bytes.
extern "C" __global__ void crc32(const unsigned char* p, int n, unsigned* out) {
    unsigned c = 0xffffffffu;
    for (int i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
    *out = ~c;
}
