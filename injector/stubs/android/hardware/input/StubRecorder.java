package android.hardware.input;

import android.os.Build;
import android.view.InputEvent;
import android.view.KeyEvent;
import android.view.MotionEvent;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * JVM test stub support, not an Android class. Records what the injector does, one line each:
 *   getInstance <class>
 *   inject <event> mode=<m>              an event that reaches a window
 *   denied <event> mode=<m>              refused by the dispatcher (Android 10-12), see below
 *   dropped (screen off) <event> mode=<m>
 *   stub-error <what>                    an event the real system would not accept as a gesture
 * where <event> is "action=<a> x=<x> y=<y> pressure=<p> size=<s> tool=<t> device=<d> source=0x<s>"
 * or "key action=<a> code=<c> repeat=<r> device=<d> source=0x<s>", to the file named by the system
 * property stub.record (appended), or else to stderr.
 *
 * What injectInputEvent does, as on a phone (sources in injector/README.md):
 *   stub.deny=1, SDK 33+: throws the SecurityException InputManagerService throws before queueing.
 *   stub.deny=1, SDK before 33: the event is queued and refused at dispatch
 *     (InputDispatcher::checkInjectionPermission): in mode 0 (async) it returns true and the
 *     event is lost; in the waiting modes it throws the older SecurityException.
 *   stub.interactive=0: the screen is off; the policy drops the event (no POLICY_FLAG_PASS_TO_USER)
 *     and the dispatcher reports that as success: true, in every mode (after the SDK 33+ refusal).
 *   stub.drop=1: returns false.
 */
final class StubRecorder {
    private static final String DENIED = "Injecting input events requires the caller (or the source of the "
            + "instrumentation, if any) to have the INJECT_EVENTS permission.";
    private static final String DENIED_BEFORE_33 =
            "Injecting to another application requires INJECT_EVENTS permission";
    private static PrintStream sink;
    private static long gestureDownTime = -1;

    private StubRecorder() {}

    static synchronized void record(String line) {
        if (sink == null) {
            String path = System.getProperty("stub.record");
            if (path == null || path.isEmpty()) {
                sink = System.err;
            } else {
                try {
                    sink = new PrintStream(new FileOutputStream(path, true), true, StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new IllegalStateException("stub.record: " + e, e);
                }
            }
        }
        sink.println(line);
        sink.flush();
    }

    private static boolean on(String property) {
        return "1".equals(System.getProperty(property));
    }

    static boolean inject(InputEvent event, int mode) {
        boolean deny = on("stub.deny");
        if (deny && Build.VERSION.SDK_INT >= 33) {
            throw new SecurityException(DENIED);
        }
        if (on("stub.drop")) {
            return false;
        }
        String line = describe(event) + " mode=" + mode;
        if ("0".equals(System.getProperty("stub.interactive"))) {
            record("dropped (screen off) " + line);
            return true;
        }
        if (deny) {
            record("denied " + line);
            if (mode == 0) {
                return true;
            }
            throw new SecurityException(DENIED_BEFORE_33);
        }
        record("inject " + line);
        if (event instanceof MotionEvent) {
            check((MotionEvent) event);
        }
        return true;
    }

    private static String describe(InputEvent event) {
        if (event instanceof KeyEvent) {
            KeyEvent k = (KeyEvent) event;
            return "key action=" + k.getAction() + " code=" + k.getKeyCode() + " repeat="
                    + k.getRepeatCount() + " device=" + k.getDeviceId() + " source=0x"
                    + Integer.toHexString(k.getSource());
        }
        MotionEvent ev = (MotionEvent) event;
        return "action=" + ev.getAction() + " x=" + ev.getX() + " y=" + ev.getY() + " pressure="
                + ev.getPressure() + " size=" + ev.getSize() + " tool=" + ev.getToolType(0)
                + " device=" + ev.getDeviceId() + " source=0x" + Integer.toHexString(ev.getSource());
    }

    /** The consistency InputDispatcher expects of one pointer's gesture. */
    private static void check(MotionEvent ev) {
        if (ev.getEventTime() < ev.getDownTime()) {
            record("stub-error eventTime " + ev.getEventTime() + " < downTime " + ev.getDownTime());
        }
        switch (ev.getAction()) {
            case MotionEvent.ACTION_DOWN:
                gestureDownTime = ev.getDownTime();
                break;
            case MotionEvent.ACTION_MOVE:
            case MotionEvent.ACTION_UP:
                if (ev.getDownTime() != gestureDownTime) {
                    record("stub-error downTime " + ev.getDownTime() + " is not the DOWN's " + gestureDownTime);
                }
                break;
            default:
                record("stub-error unexpected action " + ev.getAction());
        }
    }
}
