// The transforms behind wi_color.h, on LittleCMS 2's global context (whose default
// error handler logs nothing: a refused profile is reported by the NULL it gives).
#include "wi_color.h"

#include <lcms2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Transforms between two matrix-shaper profiles are computed here in float. For 16-bit
// input LittleCMS optimises through a resampled grid, whose interpolation across the
// gamut's edge is up to twenty levels off, and runs five times slower unoptimised; for
// 8-bit RGBA its general path with a copied alpha costs several times this loop.
// The target's curve is tabulated on the square root of light, where a byte's steps are
// nearly even: 4,096 entries put each within a twentieth of a level of the exact value,
// and build in a fraction of the time 65,536 would.
enum { ENCODE_STEPS = 4096 };

typedef struct {
    float matrix[3][3];              // source linear RGB to target linear RGB, through XYZ D50
    uint8_t encode[3][ENCODE_STEPS]; // target linear light, indexed by sqrt(light) * (steps - 1), to bytes
} wi_shaper_output;

typedef struct {
    float linear[3][65536]; // a 16-bit source sample to linear light, per channel
    wi_shaper_output out;
} wi_wide_matrix_shaper;

typedef struct {
    float linear[3][256]; // an 8-bit source sample to linear light, per channel
    wi_shaper_output out;
} wi_matrix_shaper;

struct wi_color_transform {
    cmsHTRANSFORM transform;  // NULL for a gray source (`gray`, `wide_gray`) or a matrix-shaper pair (`shaper`, `wide`)
    int cmyk;                 // the output's fourth byte is K: set it to opaque
    uint8_t gray[256][3];     // a gray profile's 256 levels in the target's RGB
    wi_matrix_shaper *shaper;
    wi_wide_matrix_shaper *wide;
    uint8_t (*wide_gray)[3];  // a gray profile's 65,536 levels in the target's RGB
};

static int fill_matrix_shaper(cmsHPROFILE input, cmsHPROFILE output, float *linear, int levels, wi_shaper_output *out);

static const cmsUInt32Number kFlags = cmsFLAGS_NOCACHE;

// The target profile, or sRGB.
static cmsHPROFILE open_target(const void *bytes, size_t length) {
    if (!bytes) return cmsCreate_sRGBProfile();
    return cmsOpenProfileFromMem(bytes, (cmsUInt32Number)length);
}

// Opens the source (sRGB when `srgb`) and the target; on failure closes what was opened,
// says which one LittleCMS refused in `message`, and returns 0.
static int open_profiles(int srgb, const void *source, size_t source_length, const void *target, size_t target_length,
                         cmsHPROFILE *input, cmsHPROFILE *output, char *message) {
    snprintf(message, 128, "%s", "");
    *input = srgb ? cmsCreate_sRGBProfile() : cmsOpenProfileFromMem(source, (cmsUInt32Number)source_length);
    if (!*input) {
        snprintf(message, 128, "LittleCMS cannot read the source profile");
        return 0;
    }
    *output = open_target(target, target_length);
    if (!*output) {
        cmsCloseProfile(*input);
        snprintf(message, 128, "LittleCMS cannot read the target profile");
        return 0;
    }
    return 1;
}

wi_color_transform *wi_color_transform_create(wi_color_source source, const void *source_profile, size_t source_length,
                                              const void *target_profile, size_t target_length, char *message) {
    cmsHPROFILE input, output;
    if (!open_profiles(source == WI_COLOR_SOURCE_SRGB, source_profile, source_length, target_profile, target_length, &input,
                       &output, message))
        return NULL;
    wi_color_transform *t = NULL;
    if (cmsGetColorSpace(output) != cmsSigRgbData) {
        snprintf(message, 128, "the target profile is not an RGB profile");
        goto done;
    }
    t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(message, 128, "out of memory");
        goto done;
    }
    cmsColorSpaceSignature space = cmsGetColorSpace(input);
    if (source == WI_COLOR_SOURCE_INVERTED_CMYK) {
        if (space != cmsSigCmykData) {
            snprintf(message, 128, "the source profile is not a CMYK profile");
            goto fail;
        }
        // TYPE_CMYK_8_REV reads 255 as no ink, as Adobe stores it.
        t->transform = cmsCreateTransform(input, TYPE_CMYK_8_REV, output, TYPE_RGBA_8, INTENT_RELATIVE_COLORIMETRIC, kFlags);
        t->cmyk = 1;
    } else if (space == cmsSigGrayData) {
        // 256 levels: convert each once, then look them up.
        cmsHTRANSFORM levels = cmsCreateTransform(input, TYPE_GRAY_8, output, TYPE_RGB_8, INTENT_RELATIVE_COLORIMETRIC, kFlags);
        if (!levels) {
            snprintf(message, 128, "LittleCMS cannot build a transform from the gray profile");
            goto fail;
        }
        uint8_t in[256];
        for (int i = 0; i < 256; i++) in[i] = (uint8_t)i;
        cmsDoTransform(levels, in, t->gray, 256);
        cmsDeleteTransform(levels);
        goto done;
    } else if (space == cmsSigRgbData) {
        wi_matrix_shaper *shaper = malloc(sizeof *shaper);
        if (shaper && fill_matrix_shaper(input, output, &shaper->linear[0][0], 256, &shaper->out)) {
            t->shaper = shaper;
            goto done;
        }
        free(shaper);
        t->transform = cmsCreateTransform(input, TYPE_RGBA_8, output, TYPE_RGBA_8, INTENT_RELATIVE_COLORIMETRIC,
                                          kFlags | cmsFLAGS_COPY_ALPHA);
    } else {
        snprintf(message, 128, "the source profile is neither RGB nor gray");
        goto fail;
    }
    if (!t->transform) {
        snprintf(message, 128, "LittleCMS cannot build a transform from the profile");
        goto fail;
    }
    goto done;
fail:
    free(t);
    t = NULL;
done:
    cmsCloseProfile(input);
    cmsCloseProfile(output);
    return t;
}

void wi_color_transform_destroy(wi_color_transform *t) {
    if (!t) return;
    if (t->transform) cmsDeleteTransform(t->transform);
    free(t->shaper);
    free(t->wide);
    free(t->wide_gray);
    free(t);
}

// One pixel's red, green and blue through a matrix-shaper pair, from linear light.
static inline void shape(const wi_shaper_output *o, float r, float g, float b, uint8_t *destination) {
    for (int c = 0; c < 3; c++) {
        float light = o->matrix[c][0] * r + o->matrix[c][1] * g + o->matrix[c][2] * b;
        light = light < 0 ? 0 : light > 1 ? 1 : light;
        destination[c] = o->encode[c][(int)(sqrtf(light) * (float)(ENCODE_STEPS - 1) + 0.5f)];
    }
}

void wi_color_transform_apply(const wi_color_transform *t, uint8_t *pixels, size_t count) {
    if (t->shaper) {
        // In place, alpha untouched: each pixel's three samples are read before written.
        const wi_matrix_shaper *m = t->shaper;
        for (size_t i = 0; i < count; i++, pixels += 4)
            shape(&m->out, m->linear[0][pixels[0]], m->linear[1][pixels[1]], m->linear[2][pixels[2]], pixels);
        return;
    }
    if (!t->transform) {
        for (size_t i = 0; i < count; i++, pixels += 4) {
            const uint8_t *rgb = t->gray[pixels[0]];
            pixels[0] = rgb[0];
            pixels[1] = rgb[1];
            pixels[2] = rgb[2];
        }
        return;
    }
    // In place: input and output pixels are both 4 bytes, read before written.
    while (count > 0) {
        cmsUInt32Number n = count > 0x10000000u ? 0x10000000u : (cmsUInt32Number)count;
        cmsDoTransform(t->transform, pixels, pixels, n);
        if (t->cmyk)
            for (cmsUInt32Number i = 0; i < n; i++) pixels[4 * i + 3] = 255;
        pixels += (size_t)n * 4;
        count -= n;
    }
}

// MARK: 16-bit matrix-shaper transforms

static int read_matrix(cmsHPROFILE profile, double m[3][3]) {
    const cmsTagSignature tags[3] = {cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag};
    for (int column = 0; column < 3; column++) {
        const cmsCIEXYZ *xyz = cmsReadTag(profile, tags[column]);
        if (!xyz) return 0;
        m[0][column] = xyz->X;
        m[1][column] = xyz->Y;
        m[2][column] = xyz->Z;
    }
    return 1;
}

static int invert(const double m[3][3], double out[3][3]) {
    double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                 m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    if (fabs(det) < 1e-9) return 0;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            // The cofactor of (c, r), transposed.
            int r0 = (c + 1) % 3, r1 = (c + 2) % 3, c0 = (r + 1) % 3, c1 = (r + 2) % 3;
            out[r][c] = (m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]) / det;
        }
    return 1;
}

// Relative colorimetric between two matrix-shaper profiles is their curves and the
// product of their colorant matrices (both adapted to D50 by the ICC's rules). Fills
// `linear` ([3][levels]) and `out`; 0 when either profile is not a matrix-shaper, has
// tables that take precedence over its matrix, or its tags are unusable.
static int fill_matrix_shaper(cmsHPROFILE input, cmsHPROFILE output, float *linear, int levels, wi_shaper_output *out) {
    if (!cmsIsMatrixShaper(input) || !cmsIsMatrixShaper(output)) return 0;
    if (cmsIsCLUT(input, INTENT_RELATIVE_COLORIMETRIC, LCMS_USED_AS_INPUT) ||
        cmsIsCLUT(output, INTENT_RELATIVE_COLORIMETRIC, LCMS_USED_AS_OUTPUT))
        return 0;
    double to_xyz[3][3], from_xyz_inverse[3][3], from_xyz[3][3];
    if (!read_matrix(input, to_xyz) || !read_matrix(output, from_xyz_inverse) || !invert(from_xyz_inverse, from_xyz)) return 0;
    const cmsTagSignature curves[3] = {cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag};
    for (int c = 0; c < 3; c++) {
        const cmsToneCurve *in_curve = cmsReadTag(input, curves[c]);
        const cmsToneCurve *out_curve = cmsReadTag(output, curves[c]);
        cmsToneCurve *inverse = out_curve ? cmsReverseToneCurve(out_curve) : NULL;
        if (!in_curve || !inverse) {
            if (inverse) cmsFreeToneCurve(inverse);
            return 0;
        }
        for (int i = 0; i < levels; i++)
            linear[c * levels + i] = cmsEvalToneCurveFloat(in_curve, (cmsFloat32Number)((double)i / (levels - 1)));
        for (int i = 0; i < ENCODE_STEPS; i++) {
            double root = (double)i / (ENCODE_STEPS - 1);
            double encoded = cmsEvalToneCurveFloat(inverse, (cmsFloat32Number)(root * root));
            encoded = encoded < 0 ? 0 : encoded > 1 ? 1 : encoded;
            out->encode[c][i] = (uint8_t)lround(encoded * 255);
        }
        cmsFreeToneCurve(inverse);
        for (int k = 0; k < 3; k++)
            out->matrix[c][k] = (float)(from_xyz[c][0] * to_xyz[0][k] + from_xyz[c][1] * to_xyz[1][k] + from_xyz[c][2] * to_xyz[2][k]);
    }
    return 1;
}

static wi_wide_matrix_shaper *make_wide_matrix_shaper(cmsHPROFILE input, cmsHPROFILE output) {
    wi_wide_matrix_shaper *w = malloc(sizeof *w);
    if (w && fill_matrix_shaper(input, output, &w->linear[0][0], 65536, &w->out)) return w;
    free(w);
    return NULL;
}

// A gray profile's 65,536 levels in the target's RGB: each level through LittleCMS
// unoptimised at double precision, rounded once. NULL when LittleCMS builds no transform.
static uint8_t (*make_wide_gray(cmsHPROFILE input, cmsHPROFILE output))[3] {
    enum { LEVELS = 65536, CHUNK = 4096 };
    cmsHTRANSFORM levels = cmsCreateTransform(input, TYPE_GRAY_DBL, output, TYPE_RGB_DBL, INTENT_RELATIVE_COLORIMETRIC,
                                              kFlags | cmsFLAGS_NOOPTIMIZE);
    uint8_t (*table)[3] = levels ? malloc(sizeof(uint8_t[LEVELS][3])) : NULL;
    double *in = table ? malloc(sizeof(double) * CHUNK) : NULL;
    double *out = in ? malloc(sizeof(double) * 3 * CHUNK) : NULL;
    if (!out) {
        free(in);
        free(table);
        if (levels) cmsDeleteTransform(levels);
        return NULL;
    }
    for (int first = 0; first < LEVELS; first += CHUNK) {
        for (int i = 0; i < CHUNK; i++) in[i] = (double)(first + i) / (LEVELS - 1);
        cmsDoTransform(levels, in, out, CHUNK);
        for (int i = 0; i < 3 * CHUNK; i++) {
            double value = out[i] < 0 ? 0 : out[i] > 1 ? 1 : out[i];
            table[first + i / 3][i % 3] = (uint8_t)lround(value * 255);
        }
    }
    free(out);
    free(in);
    cmsDeleteTransform(levels);
    return table;
}

wi_color_transform *wi_color_wide_transform_create(const void *source_profile, size_t source_length, const void *target_profile,
                                                   size_t target_length, char *message) {
    cmsHPROFILE input, output;
    if (!open_profiles(0, source_profile, source_length, target_profile, target_length, &input, &output, message)) return NULL;
    wi_color_transform *t = NULL;
    cmsColorSpaceSignature space = cmsGetColorSpace(input);
    if ((space != cmsSigRgbData && space != cmsSigGrayData) || cmsGetColorSpace(output) != cmsSigRgbData) {
        snprintf(message, 128, "a 16-bit transform needs an RGB or gray source and an RGB target");
    } else if ((t = calloc(1, sizeof *t)) == NULL) {
        snprintf(message, 128, "out of memory");
    } else if (space == cmsSigGrayData) {
        if ((t->wide_gray = make_wide_gray(input, output)) == NULL) {
            snprintf(message, 128, "LittleCMS cannot build a 16-bit transform from the gray profile");
            free(t);
            t = NULL;
        }
    } else if ((t->wide = make_wide_matrix_shaper(input, output)) == NULL) {
        // Profiles of tables, not a matrix and curves: LittleCMS unoptimised, exact and slower.
        // _SE: PNG's samples are big-endian; LittleCMS swaps them as it reads.
        t->transform = cmsCreateTransform(input, TYPE_RGBA_16_SE, output, TYPE_RGBA_8, INTENT_RELATIVE_COLORIMETRIC,
                                          kFlags | cmsFLAGS_COPY_ALPHA | cmsFLAGS_NOOPTIMIZE);
        if (!t->transform) {
            snprintf(message, 128, "LittleCMS cannot build a 16-bit transform from the profile");
            free(t);
            t = NULL;
        }
    }
    cmsCloseProfile(input);
    cmsCloseProfile(output);
    return t;
}

static inline uint8_t wide_alpha(const uint8_t *sample) {
    unsigned alpha = (unsigned)sample[0] << 8 | sample[1];
    return (uint8_t)((alpha * 255 + 32767) / 65535);
}

void wi_color_wide_transform_apply(const wi_color_transform *t, const uint8_t *source, uint8_t *destination, size_t count) {
    if (t->wide_gray) {
        // Gray expanded to RGB: R = G = B, so the red sample is the level.
        for (size_t i = 0; i < count; i++, source += 8, destination += 4) {
            const uint8_t *rgb = t->wide_gray[source[0] << 8 | source[1]];
            destination[0] = rgb[0];
            destination[1] = rgb[1];
            destination[2] = rgb[2];
            destination[3] = wide_alpha(source + 6);
        }
        return;
    }
    if (t->wide) {
        const wi_wide_matrix_shaper *w = t->wide;
        for (size_t i = 0; i < count; i++, source += 8, destination += 4) {
            shape(&w->out, w->linear[0][source[0] << 8 | source[1]], w->linear[1][source[2] << 8 | source[3]],
                  w->linear[2][source[4] << 8 | source[5]], destination);
            destination[3] = wide_alpha(source + 6);
        }
        return;
    }
    while (count > 0) {
        cmsUInt32Number n = count > 0x10000000u ? 0x10000000u : (cmsUInt32Number)count;
        cmsDoTransform(t->transform, source, destination, n);
        source += (size_t)n * 8;
        destination += (size_t)n * 4;
        count -= n;
    }
}

// MARK: Profiles made here

static uint8_t *save(cmsHPROFILE profile, size_t *length) {
    cmsUInt32Number size = 0;
    uint8_t *bytes = NULL;
    if (cmsSaveProfileToMem(profile, NULL, &size) && size > 0 && (bytes = malloc(size)) != NULL) {
        if (!cmsSaveProfileToMem(profile, bytes, &size)) {
            free(bytes);
            bytes = NULL;
        }
    }
    *length = bytes ? size : 0;
    return bytes;
}

uint8_t *wi_color_make_rgb_profile(const double white[2], const double red[2], const double green[2], const double blue[2],
                                   double gamma, size_t *length) {
    cmsCIExyY white_point = {white[0], white[1], 1.0};
    cmsCIExyYTRIPLE primaries = {{red[0], red[1], 1.0}, {green[0], green[1], 1.0}, {blue[0], blue[1], 1.0}};
    cmsToneCurve *curve = cmsBuildGamma(NULL, gamma);
    if (!curve) return NULL;
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE profile = cmsCreateRGBProfile(&white_point, &primaries, curves);
    cmsFreeToneCurve(curve);
    if (!profile) return NULL;
    uint8_t *bytes = save(profile, length);
    cmsCloseProfile(profile);
    return bytes;
}

struct cmyk_model {
    cmsHTRANSFORM srgb_to_lab;
    double shadow_gamma;
};

static int sample_cmyk(const cmsUInt16Number in[], cmsUInt16Number out[], void *cargo) {
    const struct cmyk_model *model = cargo;
    double k = 1.0 - in[3] / 65535.0;
    double rgb[3];
    for (int i = 0; i < 3; i++) {
        double value = (1.0 - in[i] / 65535.0) * k;
        rgb[i] = model->shadow_gamma == 1.0 ? value : pow(value, model->shadow_gamma);
    }
    cmsCIELab lab;
    cmsDoTransform(model->srgb_to_lab, rgb, &lab, 1);
    cmsFloat2LabEncoded(out, &lab);
    return 1;
}

uint8_t *wi_color_make_cmyk_profile(double shadow_gamma, size_t *length) {
    *length = 0;
    cmsHPROFILE srgb = cmsCreate_sRGBProfile();
    cmsHPROFILE lab = cmsCreateLab4Profile(NULL);
    struct cmyk_model model = {NULL, shadow_gamma};
    if (srgb && lab)
        model.srgb_to_lab = cmsCreateTransform(srgb, TYPE_RGB_DBL, lab, TYPE_Lab_DBL, INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_NOCACHE);
    if (srgb) cmsCloseProfile(srgb);
    if (lab) cmsCloseProfile(lab);
    if (!model.srgb_to_lab) return NULL;

    uint8_t *bytes = NULL;
    cmsHPROFILE profile = cmsCreateProfilePlaceholder(NULL);
    cmsPipeline *pipeline = cmsPipelineAlloc(NULL, 4, 3);
    cmsStage *grid = cmsStageAllocCLut16bit(NULL, 9, 4, 3, NULL);
    // A v4 lutAtoB holds A curves, the grid and B curves: identity curves around the grid.
    if (profile && pipeline && grid && cmsStageSampleCLut16bit(grid, sample_cmyk, &model, 0) &&
        cmsPipelineInsertStage(pipeline, cmsAT_BEGIN, grid)) {
        grid = NULL;  // the pipeline owns it
        cmsStage *a_curves = cmsStageAllocToneCurves(NULL, 4, NULL);
        cmsStage *b_curves = cmsStageAllocToneCurves(NULL, 3, NULL);
        if (a_curves && !cmsPipelineInsertStage(pipeline, cmsAT_BEGIN, a_curves)) cmsStageFree(a_curves);
        if (b_curves && !cmsPipelineInsertStage(pipeline, cmsAT_END, b_curves)) cmsStageFree(b_curves);
        cmsSetProfileVersion(profile, 4.3);
        cmsSetDeviceClass(profile, cmsSigOutputClass);
        cmsSetColorSpace(profile, cmsSigCmykData);
        cmsSetPCS(profile, cmsSigLabData);
        cmsMLU *description = cmsMLUalloc(NULL, 1);
        if (description) {
            cmsMLUsetASCII(description, "en", "US", "swift-web-image complement CMYK");
            cmsWriteTag(profile, cmsSigProfileDescriptionTag, description);
            cmsMLUfree(description);
        }
        cmsWriteTag(profile, cmsSigMediaWhitePointTag, cmsD50_XYZ());
        if (cmsWriteTag(profile, cmsSigAToB0Tag, pipeline)) bytes = save(profile, length);
    }
    if (grid) cmsStageFree(grid);
    if (pipeline) cmsPipelineFree(pipeline);
    if (profile) cmsCloseProfile(profile);
    cmsDeleteTransform(model.srgb_to_lab);
    return bytes;
}
