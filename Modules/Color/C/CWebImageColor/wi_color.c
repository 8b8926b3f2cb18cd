// The transforms behind wi_color.h, on LittleCMS 2's global context (whose default
// error handler logs nothing: a refused profile is reported by the NULL it gives).
#include "wi_color.h"

#include <lcms2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct wi_color_transform {
    cmsHTRANSFORM transform;  // NULL for a gray source, which uses `gray`
    int cmyk;                 // the output's fourth byte is K: set it to opaque
    uint8_t gray[256][3];     // a gray profile's 256 levels in the target's RGB
};

static const cmsUInt32Number kFlags = cmsFLAGS_NOCACHE;

// The target profile, or sRGB.
static cmsHPROFILE open_target(const void *bytes, size_t length) {
    if (!bytes) return cmsCreate_sRGBProfile();
    return cmsOpenProfileFromMem(bytes, (cmsUInt32Number)length);
}

wi_color_transform *wi_color_transform_create(wi_color_source source, const void *source_profile, size_t source_length,
                                              const void *target_profile, size_t target_length, char *message) {
    snprintf(message, 128, "%s", "");
    cmsHPROFILE input = source == WI_COLOR_SOURCE_SRGB ? cmsCreate_sRGBProfile()
                                                       : cmsOpenProfileFromMem(source_profile, (cmsUInt32Number)source_length);
    if (!input) {
        snprintf(message, 128, "LittleCMS cannot read the source profile");
        return NULL;
    }
    cmsHPROFILE output = open_target(target_profile, target_length);
    if (!output) {
        cmsCloseProfile(input);
        snprintf(message, 128, "LittleCMS cannot read the target profile");
        return NULL;
    }
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
    free(t);
}

void wi_color_transform_apply(const wi_color_transform *t, uint8_t *pixels, size_t count) {
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
