import type { Language } from '@pipwise/domain';
import { count, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { announcements } from '../../db/schema.js';

interface ExampleNotice {
  title: string;
  content: string;
}

/**
 * Two example announcements in every language, so the announcement screen has something to show on a
 * fresh installation: a welcome that explains demo and real accounts, and a security reminder.
 */
export const EXAMPLE_ANNOUNCEMENTS: Record<Language, [ExampleNotice, ExampleNotice]> = {
  hk: [
    {
      title: '歡迎使用 Pipwise',
      content:
        '<p>模擬帳戶以虛擬資金交易，可隨時重設；真實帳戶需完成實名認證後方可入金及出金。</p><p>如有疑問，請聯繫在線客服。</p>',
    },
    {
      title: '帳戶安全提示',
      content: '<p>請勿向任何人透露您的密碼或驗證碼。Pipwise 工作人員絕不會索取這些資料。</p>',
    },
  ],
  en: [
    {
      title: 'Welcome to Pipwise',
      content:
        '<p>A demo account trades with virtual funds and can be reset at any time; a real account can deposit and withdraw once its identity is verified.</p><p>Questions? Contact customer service.</p>',
    },
    {
      title: 'Keep your account safe',
      content: '<p>Never share your password or verification codes. Pipwise staff will never ask for them.</p>',
    },
  ],
  jp: [
    {
      title: 'Pipwiseへようこそ',
      content:
        '<p>デモ口座は仮想資金で取引し、いつでもリセットできます。リアル口座は本人確認の完了後に入金・出金ができます。</p><p>ご不明な点はカスタマーサービスまでお問い合わせください。</p>',
    },
    {
      title: 'アカウントの安全について',
      content: '<p>パスワードや認証コードを他人に教えないでください。Pipwiseのスタッフがそれらを尋ねることはありません。</p>',
    },
  ],
  kr: [
    {
      title: 'Pipwise에 오신 것을 환영합니다',
      content:
        '<p>데모 계좌는 가상 자금으로 거래하며 언제든지 초기화할 수 있습니다. 실제 계좌는 실명 인증을 마친 후 입금과 출금이 가능합니다.</p><p>문의 사항은 고객센터로 연락해 주세요.</p>',
    },
    {
      title: '계정 보안 안내',
      content: '<p>비밀번호나 인증 코드를 누구에게도 알려주지 마세요. Pipwise 직원은 절대 이를 요구하지 않습니다.</p>',
    },
  ],
  th: [
    {
      title: 'ยินดีต้อนรับสู่ Pipwise',
      content:
        '<p>บัญชีทดลองเทรดด้วยเงินเสมือนและรีเซ็ตได้ทุกเมื่อ บัญชีจริงฝากและถอนเงินได้หลังยืนยันตัวตนแล้ว</p><p>หากมีคำถาม โปรดติดต่อฝ่ายบริการลูกค้า</p>',
    },
    {
      title: 'รักษาความปลอดภัยของบัญชี',
      content: '<p>อย่าเปิดเผยรหัสผ่านหรือรหัสยืนยันแก่ผู้ใด เจ้าหน้าที่ Pipwise จะไม่ขอข้อมูลเหล่านี้เด็ดขาด</p>',
    },
  ],
  vn: [
    {
      title: 'Chào mừng đến với Pipwise',
      content:
        '<p>Tài khoản demo giao dịch bằng tiền ảo và có thể đặt lại bất cứ lúc nào; tài khoản thật có thể nạp và rút tiền sau khi xác minh danh tính.</p><p>Nếu có thắc mắc, vui lòng liên hệ bộ phận chăm sóc khách hàng.</p>',
    },
    {
      title: 'Bảo vệ tài khoản của bạn',
      content:
        '<p>Không bao giờ chia sẻ mật khẩu hoặc mã xác minh. Nhân viên Pipwise sẽ không bao giờ yêu cầu những thông tin này.</p>',
    },
  ],
  fr: [
    {
      title: 'Bienvenue sur Pipwise',
      content:
        '<p>Un compte démo négocie avec des fonds virtuels et peut être réinitialisé à tout moment ; un compte réel peut déposer et retirer une fois son identité vérifiée.</p><p>Des questions ? Contactez le service client.</p>',
    },
    {
      title: 'Protégez votre compte',
      content:
        '<p>Ne communiquez jamais votre mot de passe ni vos codes de vérification. Le personnel de Pipwise ne vous les demandera jamais.</p>',
    },
  ],
  de: [
    {
      title: 'Willkommen bei Pipwise',
      content:
        '<p>Ein Demokonto handelt mit virtuellem Geld und lässt sich jederzeit zurücksetzen; ein Echtgeldkonto kann nach der Identitätsprüfung einzahlen und auszahlen.</p><p>Fragen? Wenden Sie sich an den Kundenservice.</p>',
    },
    {
      title: 'Schützen Sie Ihr Konto',
      content:
        '<p>Geben Sie Ihr Passwort und Ihre Bestätigungscodes niemals weiter. Mitarbeiter von Pipwise werden nie danach fragen.</p>',
    },
  ],
  ru: [
    {
      title: 'Добро пожаловать в Pipwise',
      content:
        '<p>Демо-счёт торгует виртуальными средствами и может быть сброшен в любой момент; реальный счёт может пополнять и выводить средства после подтверждения личности.</p><p>Есть вопросы? Обратитесь в службу поддержки.</p>',
    },
    {
      title: 'Берегите свой аккаунт',
      content: '<p>Никому не сообщайте свой пароль и код подтверждения. Сотрудники Pipwise никогда их не запрашивают.</p>',
    },
  ],
  spa: [
    {
      title: 'Bienvenido a Pipwise',
      content:
        '<p>Una cuenta demo opera con fondos virtuales y puedes restablecerla en cualquier momento; una cuenta real puede depositar y retirar una vez verificada tu identidad.</p><p>¿Tienes preguntas? Contacta con atención al cliente.</p>',
    },
    {
      title: 'Protege tu cuenta',
      content:
        '<p>No compartas nunca tu contraseña ni tus códigos de verificación. El personal de Pipwise nunca te los pedirá.</p>',
    },
  ],
  pt: [
    {
      title: 'Bem-vindo à Pipwise',
      content:
        '<p>Uma conta demo negocia com fundos virtuais e você pode redefini-la a qualquer momento; uma conta real pode depositar e sacar depois de verificar a identidade.</p><p>Dúvidas? Fale com o atendimento ao cliente.</p>',
    },
    {
      title: 'Proteja sua conta',
      content: '<p>Nunca compartilhe sua senha nem seus códigos de verificação. A equipe da Pipwise nunca vai pedi-los.</p>',
    },
  ],
  ar: [
    {
      title: 'مرحبًا بك في Pipwise',
      content:
        '<p>يتداول الحساب التجريبي بأموال افتراضية ويمكن إعادة تعيينه في أي وقت؛ أما الحساب الحقيقي فيمكنه الإيداع والسحب بعد التحقق من الهوية.</p><p>هل لديك أسئلة؟ تواصل مع خدمة العملاء.</p>',
    },
    {
      title: 'حافظ على أمان حسابك',
      content: '<p>لا تشارك كلمة المرور أو رموز التحقق مع أي شخص. لن يطلبها منك موظفو Pipwise أبدًا.</p>',
    },
  ],
  it: [
    {
      title: 'Benvenuto su Pipwise',
      content:
        "<p>Un conto demo opera con fondi virtuali e puoi reimpostarlo in qualsiasi momento; un conto reale può depositare e prelevare dopo la verifica dell'identità.</p><p>Domande? Contatta il servizio clienti.</p>",
    },
    {
      title: 'Proteggi il tuo conto',
      content: '<p>Non condividere mai la password o i codici di verifica. Il personale di Pipwise non te li chiederà mai.</p>',
    },
  ],
  tr: [
    {
      title: "Pipwise'a hoş geldiniz",
      content:
        '<p>Demo hesap sanal fonlarla işlem yapar ve istediğiniz zaman sıfırlanabilir; gerçek hesap, kimlik doğrulamasından sonra para yatırıp çekebilir.</p><p>Sorunuz mu var? Müşteri hizmetleriyle iletişime geçin.</p>',
    },
    {
      title: 'Hesabınızı güvende tutun',
      content: '<p>Şifrenizi veya doğrulama kodunuzu kimseyle paylaşmayın. Pipwise çalışanları bunları asla istemez.</p>',
    },
  ],
  id: [
    {
      title: 'Selamat datang di Pipwise',
      content:
        '<p>Akun demo bertransaksi dengan dana virtual dan dapat diatur ulang kapan saja; akun riil dapat melakukan setoran dan penarikan setelah identitas diverifikasi.</p><p>Ada pertanyaan? Hubungi layanan pelanggan.</p>',
    },
    {
      title: 'Jaga keamanan akun Anda',
      content: '<p>Jangan pernah membagikan kata sandi atau kode verifikasi Anda. Staf Pipwise tidak akan pernah memintanya.</p>',
    },
  ],
  my: [
    {
      title: 'Pipwise မှ ကြိုဆိုပါသည်',
      content:
        '<p>စမ်းသပ်အကောင့်သည် အတုငွေဖြင့် အရောင်းအဝယ်ပြုလုပ်ပြီး အချိန်မရွေး ပြန်လည်သတ်မှတ်နိုင်သည်။ အစစ်အမှန်အကောင့်သည် မည်သူမည်ဝါ အတည်ပြုပြီးနောက် ငွေသွင်းခြင်းနှင့် ငွေထုတ်ခြင်း ပြုလုပ်နိုင်သည်။</p><p>မေးစရာရှိပါက ဖောက်သည်ဝန်ဆောင်မှုကို ဆက်သွယ်ပါ။</p>',
    },
    {
      title: 'သင့်အကောင့်ကို လုံခြုံအောင်ထားပါ',
      content: '<p>သင့်စကားဝှက် သို့မဟုတ် အတည်ပြုကုဒ်များကို မည်သူ့ကိုမျှ မပေးပါနှင့်။ Pipwise ဝန်ထမ်းများက ၎င်းတို့ကို ဘယ်တော့မှ မတောင်းပါ။</p>',
    },
  ],
  hi: [
    {
      title: 'Pipwise में आपका स्वागत है',
      content:
        '<p>डेमो खाता वर्चुअल फंड से ट्रेड करता है और इसे कभी भी रीसेट किया जा सकता है; असली खाता पहचान सत्यापन के बाद जमा और निकासी कर सकता है।</p><p>कोई प्रश्न? ग्राहक सेवा से संपर्क करें।</p>',
    },
    {
      title: 'अपने खाते को सुरक्षित रखें',
      content: '<p>अपना पासवर्ड या सत्यापन कोड कभी किसी से साझा न करें। Pipwise के कर्मचारी इन्हें कभी नहीं मांगेंगे।</p>',
    },
  ],
  cs: [
    {
      title: 'Vítejte v Pipwise',
      content:
        '<p>Demo účet obchoduje s virtuálními prostředky a lze jej kdykoli obnovit; reálný účet může provést vklad i výběr po ověření totožnosti.</p><p>Máte dotazy? Obraťte se na zákaznický servis.</p>',
    },
    {
      title: 'Chraňte svůj účet',
      content: '<p>Nikdy nikomu nesdělujte své heslo ani ověřovací kódy. Zaměstnanci Pipwise o ně nikdy nežádají.</p>',
    },
  ],
};

/**
 * Seeds the examples into an empty table only: once announcements exist they belong to the operators,
 * and a start-up must never bring back one they removed. Concurrent first starts may both see the
 * table empty; the advisory lock makes the check and the insert one step. The welcome is dated a
 * minute before the security reminder, so the list (newest first) is the same on every start.
 */
export async function seedAnnouncements(db: Db) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('seed:announcements'))`);
    const [existing] = await tx.select({ n: count() }).from(announcements);
    if (Number(existing?.n ?? 0) > 0) return;
    const now = Date.now();
    await tx
      .insert(announcements)
      .values(
        Object.entries(EXAMPLE_ANNOUNCEMENTS).flatMap(([lang, notices]) =>
          notices.map((notice, index) => ({ lang, ...notice, createdAt: new Date(now - (notices.length - 1 - index) * 60_000) })),
        ),
      );
  });
}
