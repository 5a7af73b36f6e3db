package dev.jobqueue.failure;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/** A version of the chaos application: the built chaos.war with classes of one version added, as its code has them. */
final class WarVariant {

    private WarVariant() {
    }

    /** Writes chaos-{@code version}.war beside chaos.war, with {@code classes} in WEB-INF/classes. */
    static Path build(String version, Class<?>... classes) throws IOException {
        Path chaos = Path.of(System.getProperty("chaos.war"));
        Path variant = chaos.resolveSibling("chaos-" + version + ".war");
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(chaos));
             ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(variant))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                out.putNextEntry(new ZipEntry(entry.getName()));
                in.transferTo(out);
                out.closeEntry();
            }
            for (Class<?> type : classes) {
                out.putNextEntry(new ZipEntry("WEB-INF/classes/" + type.getName().replace('.', '/') + ".class"));
                try (InputStream bytes = type.getResourceAsStream(type.getSimpleName() + ".class")) {
                    bytes.transferTo(out);
                }
                out.closeEntry();
            }
        }
        return variant;
    }
}
