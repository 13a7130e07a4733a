package android.hardware.input;

import android.view.InputEvent;

/**
 * JVM test stub of the Android 14+ class. run-jvm.sh puts it on the class path only for
 * stub.sdk >= 34 (or -Dstub.global=1), as the class does not exist on older Android versions.
 */
public final class InputManagerGlobal {
    private static final InputManagerGlobal INSTANCE = new InputManagerGlobal();

    private InputManagerGlobal() {}

    public static InputManagerGlobal getInstance() {
        StubRecorder.record("getInstance android.hardware.input.InputManagerGlobal");
        return INSTANCE;
    }

    public boolean injectInputEvent(InputEvent event, int mode) {
        return StubRecorder.inject(event, mode);
    }
}
