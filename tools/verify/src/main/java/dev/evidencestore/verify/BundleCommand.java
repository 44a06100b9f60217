package dev.evidencestore.verify;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipException;

/**
 * {@code verify bundle EVIDENCE.zip --key PUBLIC.pem}: that an evidence bundle is whole and that its reviews are
 * signed and in the log, trusting nothing in it but what the given keys signed: the signing key and, after a
 * rotation, the retired keys older statements were signed with. The key in the bundle is only compared with the
 * given ones (a warning when it is none of them), never used.
 */
final class BundleCommand implements Command {

    @Override
    public String usage() {
        return "bundle EVIDENCE.zip --key PUBLIC.pem [--key RETIRED.pem ...]";
    }

    @Override
    public int run(List<String> arguments, PrintStream out, PrintStream err) {
        String bundleFile = null;
        List<String> keyFiles = new ArrayList<>();
        for (int i = 0; i < arguments.size(); i++) {
            String argument = arguments.get(i);
            if (argument.equals("--key")) {
                if (i + 1 >= arguments.size()) {
                    return usage(err, "--key needs a value");
                }
                keyFiles.add(arguments.get(++i));
            } else if (argument.startsWith("-") || bundleFile != null) {
                return usage(err, "unexpected argument \"" + argument + "\"");
            } else {
                bundleFile = argument;
            }
        }
        if (bundleFile == null || keyFiles.isEmpty()) {
            return usage(err, bundleFile == null ? "EVIDENCE.zip is missing" : "--key is missing");
        }
        List<String> pems = new ArrayList<>();
        for (String keyFile : keyFiles) {
            try {
                pems.add(Files.readString(Path.of(keyFile)));
            } catch (IOException e) {
                return usage(err, "cannot read " + e.getMessage());
            }
        }
        if (!Files.isReadable(Path.of(bundleFile))) {
            return usage(err, "cannot read " + bundleFile);
        }
        Checks checks = new Checks(out);
        List<PublicKey> keys = new ArrayList<>();
        for (int i = 0; i < pems.size(); i++) {
            try {
                keys.add(Ed25519Keys.readPublicPem(pems.get(i)));
                checks.pass("key", "Ed25519 public key read from " + keyFiles.get(i));
            } catch (MalformedInput e) {
                return checks.fail("key", keyFiles.get(i) + ": " + e.getMessage());
            }
        }
        try (EvidenceZip zip = EvidenceZip.open(Path.of(bundleFile))) {
            new BundleChecks(zip, new GivenKeys(keys), checks).run();
        } catch (ZipException e) {
            checks.fail(bundleFile, "not a readable zip: " + e.getMessage());
        } catch (IOException e) {
            checks.fail(bundleFile, "cannot be read: " + e.getMessage());
        }
        return checks.status();
    }

    private static int usage(PrintStream err, String problem) {
        err.println("verify bundle: " + problem);
        err.println("usage: verify " + new BundleCommand().usage());
        return USAGE;
    }
}
