"""PNG encoding, kept apart from composing so callers can measure and cache each step."""

from __future__ import annotations

import io

from PIL import Image, ImageChops, ImageStat

# zlib level 1: flat-colour images compress almost as well as at level 6, several times faster.
COMPRESS_LEVEL = 1
# A palette image has a third of the bytes to compress: level 6 takes about what level 1 takes for full colour
# and saves another 15 %.
PALETTE_COMPRESS_LEVEL = 6

# An 8-bit palette PNG is used when it looks the same as the full-colour image: the boards are flat colours
# with anti-aliased edges, so 256 colours keep every area's colour and only shift a few edge pixels.
PALETTE_MAX_MEAN_ERROR = 1.5   # mean difference per channel, 0-255
PALETTE_MAX_OFF_SHARE = 0.001  # share of pixels off by more than PALETTE_OFF in some channel
PALETTE_OFF = 32


def encode_png(img: Image.Image, *, palette: bool = False) -> bytes:
    """PNG bytes of an image (no ``optimize``: it doubles the time for a few per cent).

    With ``palette`` the image is stored with 256 colours when that looks the same (about a third of the
    bytes); otherwise, or when it would not, in full colour, losslessly."""
    if palette:
        small = palette_png(img)
        if small is not None:
            return small
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=COMPRESS_LEVEL)
    return buf.getvalue()


def palette_png(img: Image.Image) -> bytes | None:
    """The image as an 8-bit palette PNG, or None when 256 colours would visibly change it."""
    if img.mode == "RGBA":
        if img.getextrema()[3][0] < 255:
            return None  # real transparency: keep full colour
        img = img.convert("RGB")
    elif img.mode != "RGB":
        return None
    quantized = img.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    if img.getcolors(256) is None and not _looks_the_same(img, quantized):
        return None
    buf = io.BytesIO()
    quantized.save(buf, format="PNG", compress_level=PALETTE_COMPRESS_LEVEL)
    return buf.getvalue()


def _looks_the_same(img: Image.Image, quantized: Image.Image) -> bool:
    """The palette moved the colours little on average, and few pixels far in some channel."""
    diff = ImageChops.difference(img, quantized.convert("RGB"))
    hist = diff.histogram()  # 256 counts per channel
    bands = [hist[i:i + 256] for i in range(0, len(hist), 256)]
    if sum(ImageStat.Stat(hist).mean) / 3 > PALETTE_MAX_MEAN_ERROR:
        return False
    allowed = PALETTE_MAX_OFF_SHARE * img.width * img.height
    # Pixels far off in some channel are at most those far off in red, plus in green, plus in blue: when that
    # sum is within the limit there is no need to count each pixel once.
    if sum(sum(band[PALETTE_OFF + 1:]) for band in bands) <= allowed:
        return True
    r, g, b = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), b).histogram()
    return sum(worst[PALETTE_OFF + 1:]) <= allowed
