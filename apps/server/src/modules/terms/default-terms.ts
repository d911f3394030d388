/** Terms shown until an administrator publishes their own (back-office Terms). */
export const defaultTerms = {
  en: `<h2>Terms of use</h2>
<p>Lamella analyses the micrographs you upload and shows you the results. You keep all rights to your images and results.</p>
<p>We store your images and results only to provide the service. We use them to improve our models only if you allow it (training consent), and you can withdraw that consent in your profile at any time unless your organisation decides it for you.</p>
<p>Measurements are computed automatically; check them before you rely on them for decisions.</p>`,
  de: `<h2>Nutzungsbedingungen</h2>
<p>Lamella analysiert die von Ihnen hochgeladenen Schliffbilder und zeigt Ihnen die Ergebnisse. Alle Rechte an Ihren Bildern und Ergebnissen bleiben bei Ihnen.</p>
<p>Wir speichern Ihre Bilder und Ergebnisse nur, um den Dienst zu erbringen. Zur Verbesserung unserer Modelle verwenden wir sie nur mit Ihrer Zustimmung (Trainingsfreigabe), die Sie im Profil jederzeit widerrufen können, sofern Ihre Organisation nicht für Sie entscheidet.</p>
<p>Messwerte werden automatisch berechnet; prüfen Sie sie, bevor Sie sich bei Entscheidungen darauf verlassen.</p>`,
};
