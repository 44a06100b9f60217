package dev.evidencestore.preview;

/**
 * What an artifact page shows of the evidence itself. Each kind of evidence has its own shape; every one carries the
 * facts read from the bytes.
 */
public sealed interface Preview permits DashboardPreview, DiffPreview, WorkloadPreview, UnavailablePreview,
        JsonPreview, TextPreview, ImagePreview, NoPreview {

    Facts facts();
}
