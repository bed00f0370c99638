package dev.flow.helper;

/**
 * Reads a capture's pixels. A secure window (FLAG_SECURE) is not missing
 * from a screenshot: SurfaceFlinger draws it black, so a capture of a
 * screen that shows only secure content is all black, not null.
 */
final class Frames {
    /** Samples per axis: enough to see any real screen, cheap on a phone. */
    static final int GRID = 64;

    /** A capture's pixels as ARGB. */
    interface Pixels {
        int width();

        int height();

        int argb(int x, int y);
    }

    private Frames() {
    }

    /** Whether every sampled pixel is black (alpha ignored); an empty capture is not. */
    static boolean black(Pixels p) {
        int w = p.width();
        int h = p.height();
        if (w <= 0 || h <= 0) {
            return false;
        }
        int nx = Math.min(GRID, w);
        int ny = Math.min(GRID, h);
        for (int j = 0; j < ny; j++) {
            // The centre of each cell, so a grid of GRID cells covers the edges too.
            int y = (int) ((2L * j + 1) * h / (2L * ny));
            for (int i = 0; i < nx; i++) {
                int x = (int) ((2L * i + 1) * w / (2L * nx));
                if ((p.argb(x, y) & 0x00FFFFFF) != 0) {
                    return false;
                }
            }
        }
        return true;
    }
}
